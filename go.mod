module github.com/emberllm/ember

go 1.26.0

require (
	github.com/ardanlabs/jinja v1.5.0
	github.com/chromedp/chromedp v0.23.0
	github.com/ebitengine/purego v0.11.3
	github.com/gorilla/websocket v1.5.3
	github.com/oliverbestmann/webgpu v1.0.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/oliverbestmann/webgpu/libs-android v0.0.0-20251123130330-255708779f8b // indirect
	github.com/oliverbestmann/webgpu/libs-darwin v0.0.0-20251123130615-bce73357dc8d // indirect
	github.com/oliverbestmann/webgpu/libs-ios v0.0.0-20251123130710-78131685b429 // indirect
	github.com/oliverbestmann/webgpu/libs-linux v0.0.0-20251123130508-41a15cd9f5d4 // indirect
	github.com/oliverbestmann/webgpu/libs-windows v0.0.0-20251123134324-0b4e31ddbbf9 // indirect
)
