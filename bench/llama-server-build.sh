#!/usr/bin/env bash
# Builds llama.cpp's llama-server for the serving benchmarks (bench/serve.sh)
# from the llama.cpp source node-llama-cpp ships (its git bundle, or a tree
# in LLAMA_SRC) against its prebuilt libraries, as internal/oracle builds
# llama-bench: g++, the libraries beside the binary, rpath $ORIGIN.
#
#   bench/llama-server-build.sh OUT LIBDIR [LLAMA_LIB GGML_LIB]
#
# LIBDIR holds the libraries (libllama-common.so, libggml-base.so, the
# llama and ggml libraries and their backends): the CPU set of
# internal/oracle/build/llama-bench, or the Vulkan set of out/llama-vulkan
# with LLAMA_LIB=libllama.vulkan.v0.5.0.so GGML_LIB=libggml.vulkan.v0.5.0.so.
# The objects are kept in OBJ (default OUT/obj): give a second library set
# the first one's OBJ and it only links.
#
# What the package lacks is compiled here: the server's own files, libmtmd
# (the multimodal library the server links; text requests never use it)
# and its hashes. The server's web page is left out: ui.cpp and ui.h are
# written from llama.cpp's own templates (tools/ui/*.in) with no assets, as
# its build does when no page is built, so / answers 404; the API is whole.
set -euo pipefail
out=$(realpath -m "$1"); libdir=$(realpath "$2")
llama_lib=${3:-libllama.v0.5.0.so}; ggml_lib=${4:-libggml.v0.5.0.so}
obj=$(realpath -m "${OBJ:-$out/obj}")
mkdir -p "$out"
mkdir -p "$obj/gen"
if [ -z "${LLAMA_SRC:-}" ]; then
  # The folders the server needs, from the bundle make deps installs (the
  # same commit as the prebuilt libraries).
  bundle=$(dirname "$0")/../internal/oracle/node_modules/node-llama-cpp/llama/gitRelease.bundle
  LLAMA_SRC=$out/src
  if [ ! -f "$LLAMA_SRC/tools/server/server.cpp" ]; then
    rm -rf "$out/src.git" && git clone -q --bare "$bundle" "$out/src.git" && mkdir -p "$LLAMA_SRC"
    git --git-dir "$out/src.git" archive HEAD include ggml/include common vendor src tools/server tools/mtmd tools/ui | tar -x -C "$LLAMA_SRC"
  fi
fi
src=$(realpath "$LLAMA_SRC")
[ -f "$src/tools/server/server.cpp" ] || { echo "no llama.cpp tree at $src" >&2; exit 1; }
# The stub asset table, from the templates.
sed -e 's/#cmakedefine LLAMA_UI_HAS_ASSETS 1//' -e 's/@N_ASSETS@/0/g' "$src/tools/ui/ui.h.in" > "$obj/gen/ui.h"
sed -e 's/@N_ASSETS@/0/g' -e 's/@ASSET_ARRAYS@//' -e 's/@ASSET_TABLE@//' -e 's/@USE_GZIP@/false/' "$src/tools/ui/ui.cpp.in" > "$obj/gen/ui.cpp"
# build-info.h: the version the server reports.
[ -f "$src/common/build-info.h" ] || printf '#pragma once\n' > "$obj/gen/build-info.h"

inc=(-I "$src/include" -I "$src/ggml/include" -I "$src/common" -I "$src/vendor" -I "$src/vendor/hash" -I "$src/tools/mtmd" -I "$src/tools/server" -I "$src" -I "$obj/gen")
srcs=()
for f in "$src"/tools/server/{server,server-http,server-models,server-chat,server-task,server-queue,server-common,server-context,server-stream,server-tools,server-mcp,server-schema,main}.cpp; do srcs+=("$f"); done
mtmd=$(sed -n '/^add_library(mtmd/,/)/p' "$src/tools/mtmd/CMakeLists.txt" | grep -o '[A-Za-z0-9_./-]*\.cpp')
for f in $mtmd; do srcs+=("$src/tools/mtmd/$f"); done
srcs+=("$src/vendor/hash/hash.cpp" "$src/vendor/hash/xxhash/xxhash.c" "$src/vendor/hash/sha1/sha1.c" "$src/vendor/hash/sha256/sha256.c" "$obj/gen/ui.cpp")

# One make rule an object, so -j runs them side by side.
{
  echo "all:"
  objs=()
  for f in "${srcs[@]}"; do
    o="$obj/$(echo "${f#$src/}" | tr / _).o"
    objs+=("$o")
    # The server's files at -O2; the multimodal library, never run by
    # text requests, at -O1 to build faster.
    case "$f" in */tools/mtmd/*|*/vendor/*) opt=-O1 ;; *) opt=-O2 ;; esac
    # (sha1.c is C++, in a namespace: vendor/hash/CMakeLists.txt)
    case "$f" in */sha1.c) cc="g++ -x c++ $opt -std=c++17 -w" ;; *.c) cc="gcc $opt -w" ;; *) cc="g++ $opt -std=c++17 -w" ;; esac
    echo "$o: $f"; printf '\t%s -fPIC %s -c %s -o %s\n' "$cc" "${inc[*]}" "$f" "$o"
    echo "all: $o"
  done
} > "$obj/Makefile"
make -s -j"${JOBS:-$(nproc)}" -f "$obj/Makefile" all
for l in "$libdir"/*.so*; do cp -a "$l" "$out/"; done
link=(-l:libllama-common.so "-l:$llama_lib" "-l:$ggml_lib" -l:libggml-base.so)
g++ -o "$out/llama-server" "$obj"/*.o -L "$out" "${link[@]}" -Wl,-rpath,'$ORIGIN' -pthread
echo "$out/llama-server"
