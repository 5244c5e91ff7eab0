module github.com/emberllm/ember

go 1.26.0

require github.com/ardanlabs/jinja v1.5.0 // indirect
