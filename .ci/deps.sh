#!/usr/bin/env bash
# Installs what ember's build and tests need on a Debian machine, and only
# what is missing: apt packages (Vulkan loader and lavapipe for the WebGPU
# tests, Chromium for the browser tests, qemu-user to run the arm64 (NEON)
# kernels' tests, g++ to run the Metal kernels as C++ (gpu/metal), NumPy
# for llama.cpp's own GGUF writer (gguf-py) that writes the model tests'
# files, Node.js when absent) and the npm packages
# of the llama.cpp oracle. Says what it installs.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
want_apt=(libvulkan1 mesa-vulkan-drivers chromium qemu-user g++ python3-numpy)
command -v node >/dev/null 2>&1 || want_apt+=(nodejs npm)
for p in "${want_apt[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "deps: installing apt packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ ! -d internal/oracle/node_modules/node-llama-cpp ] || [ ! -d internal/oracle/node_modules/@huggingface/jinja ] || [ ! -d internal/oracle/node_modules/openai ]; then
  echo "deps: installing npm packages of the llama.cpp oracle and the OpenAI client test (internal/oracle)"
  (cd internal/oracle && npm install --no-audit --no-fund --loglevel=error)
fi
