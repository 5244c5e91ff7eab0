package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/emberllm/ember/internal/chromium"
)

// The chat page in headless Chromium: opened without the API key it asks
// for it (the page loads without one; the API answers 401 until it has
// it), then it connects, streams an answer with its reasoning shown apart,
// reports tok/s, and Stop cancels a long generation. The screenshot is
// written for a person to look at.
func TestServeChatPage(t *testing.T) {
	_, thinking := tinyModels(t)
	ts := startServer(t, Config{Parallel: 2, APIKey: "page-key"}, thinking)
	// The tiny model would finish 480 tokens before a click could stop it.
	ts.local.pace = 10 * time.Millisecond
	profile := t.TempDir()
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.ExecPath(chromium.Require(t)),
		chromedp.Flag("headless", "new"), chromedp.NoSandbox, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(profile), chromedp.WindowSize(1000, 760))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()

	poll := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(20*time.Second))
	}
	text := func(css string) string {
		v, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(css)))
		if err != nil {
			t.Fatalf("%s: %v", css, err)
		}
		return v
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.url+"/"),
		chromedp.WaitVisible(chromedp.ID("keybox")),
		chromedp.SendKeys(chromedp.ID("key"), "page-key"),
		chromedp.Click(chromedp.ID("keyok")),
		// The page reloads with the key kept in the tab (sessionStorage);
		// wait for the reload to be done before asking it anything.
		chromedp.Sleep(500*time.Millisecond),
		chromedp.WaitReady("body"),
		poll(`document.getElementById("model").textContent === "tiny-thinker"`),
		chromedp.WaitVisible(chromedp.ID("prompt")),
		chromedp.SetValue(chromedp.ID("max"), "24"),
		chromedp.SetValue(chromedp.ID("temp"), "0"),
		chromedp.SendKeys(chromedp.ID("prompt"), "Why is the sky blue?"),
		chromedp.Click(chromedp.ID("send")),
		poll(`(document.querySelector(".msg.assistant .meta") || {}).textContent?.includes("tok/s")`),
	)
	if err != nil {
		t.Fatal(err)
	}
	meta, reasoning, stats := text(".msg.assistant .meta"), text(".msg.assistant .reasoning-text"), text("#stats")
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.querySelector(".msg.assistant details.reasoning").hidden`))
	if err != nil {
		t.Fatal(err)
	}
	if !shown || strings.TrimSpace(reasoning) == "" || !strings.Contains(meta, "tok/s") || !strings.Contains(stats, "tok/s") {
		t.Fatalf("after the answer: reasoning shown %v %q, meta %q, stats %q", shown, reasoning, meta, stats)
	}
	shot := filepath.Join(os.TempDir(), "ember-chat-page.png")
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the chat page: %s", shot)

	// Stop: a long answer (the test makes the page ask past end-of-text,
	// so it cannot end by itself first) is cancelled on the server.
	err = chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`(() => {
			const send = WebSocket.prototype.send;
			WebSocket.prototype.send = function (data) {
				const m = JSON.parse(data);
				if (m.type === "generate") m.options.ignore_eos = true;
				return send.call(this, JSON.stringify(m));
			};
		})()`),
		chromedp.SetValue(chromedp.ID("max"), "480"),
		chromedp.SendKeys(chromedp.ID("prompt"), "Tell me more."),
		chromedp.Click(chromedp.ID("send")),
		poll(`document.querySelectorAll(".msg.assistant").length === 2 && document.querySelectorAll(".msg.assistant")[1].textContent.length > 0`),
		chromedp.Click(chromedp.ID("stop")),
		poll(`document.querySelectorAll(".msg.assistant .meta")[1].textContent !== ""`),
	)
	if err != nil {
		t.Fatal(err)
	}
	meta2, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelectorAll(".msg.assistant .meta")[1].textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(meta2, "cancelled") {
		t.Fatalf("after Stop the answer says %q", meta2)
	}
	waitFor(t, "the stopped generation to free its slot", 5*time.Second, func() bool { return ts.Stats().Busy == 0 })
	if s := ts.Stats(); s.Cancelled != 1 || s.Completed != 1 {
		t.Fatalf("server saw %+v", s)
	}
}
