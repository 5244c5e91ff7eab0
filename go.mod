module github.com/emberllm/ember

go 1.26
