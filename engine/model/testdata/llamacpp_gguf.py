#!/usr/bin/env python3
"""Tiny random models written by llama.cpp's own GGUF writer (gguf-py),
in the layouts current llama.cpp converters write and ember's synthetic
writer does not: q/k/v, output and feed-forward biases, per-tensor and
per-expert `.scale` tensors with their `.input_scale`, merged
`ffn_gate_up_exps` expert stacks (convert_hf_to_gguf.py
--fuse-gate-up-exps), a multi-token-prediction block, and tensors no
loader takes.

    llamacpp_gguf.py GGUF_PY_DIR OUT_DIR

writes every model below into OUT_DIR as NAME.gguf and prints the names.
Pairs written from the same weights (NAME-merged / NAME-split, and
NAME-scaled / NAME-baked, whose weights are the scaled file's weights
times their power-of-two scales) let the tests check ember against itself
where llama.cpp does not run a layout.
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, sys.argv[1])
import gguf  # noqa: E402

Q = gguf.GGMLQuantizationType
OUT = Path(sys.argv[2])


def byte_chars():
    """GPT-2's byte-to-unicode table."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


def vocab(w, pre):
    """A byte-level BPE vocabulary: the 256 bytes, two merges, BOS/EOS."""
    m = byte_chars()
    toks = [m[b] for b in range(256)]
    merges = [m[ord(" ")] + " t", "h e"]
    toks += [m[ord(" ")] + "t", "he", "<|bos|>", "<|eos|>"]
    types = [gguf.TokenType.NORMAL] * 258 + [gguf.TokenType.CONTROL] * 2
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre(pre)
    w.add_token_list(toks)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(258)
    w.add_eos_token_id(259)
    return len(toks)


class Model:
    """One file under construction: gguf-py's writer, a seeded generator
    and the type of its weight matrices."""

    def __init__(self, name, arch, qtype, seed, pre="default"):
        self.name, self.qtype = name, qtype
        self.rng = np.random.default_rng(seed)
        self.w = gguf.GGUFWriter(str(OUT / (name + ".gguf")), arch)
        self.w.add_name("ember test " + name)
        self.vocab = vocab(self.w, pre)
        ft = {Q.F32: gguf.LlamaFileType.ALL_F32, Q.F16: gguf.LlamaFileType.MOSTLY_F16,
              Q.Q8_0: gguf.LlamaFileType.MOSTLY_Q8_0, Q.Q4_0: gguf.LlamaFileType.MOSTLY_Q4_0}[qtype]
        self.w.add_file_type(ft)
        if qtype not in (Q.F32, Q.F16):
            self.w.add_quantization_version(gguf.GGML_QUANT_VERSION)
        self.tensors = []  # (name, values, type), written in order by save

    # values, numpy shape = ggml dims reversed
    def normal(self, shape, std):
        return (self.rng.standard_normal(shape) * std).astype(np.float32)

    def matrix(self, name, *shape, qtype=None):
        """A weight {shape[-1], ...} (ggml order reversed), 1/sqrt(fan-in)."""
        v = self.normal(shape, 1 / np.sqrt(shape[-1]))
        self.tensors.append([name, v, qtype or self.qtype])
        return v

    def vector(self, name, n, mean=0.0, std=0.5):
        v = (mean + self.normal((n,), std)).astype(np.float32)
        self.tensors.append([name, v, Q.F32])
        return v

    def scale(self, name, n=1, lo=0.5, hi=1.5):
        v = self.rng.uniform(lo, hi, (n,)).astype(np.float32)
        self.tensors.append([name, v, Q.F32])
        return v

    def find(self, name):
        for t in self.tensors:
            if t[0] == name:
                return t
        raise KeyError(name)

    def drop(self, name):
        self.tensors = [t for t in self.tensors if t[0] != name]

    def save(self):
        for name, v, qtype in self.tensors:
            if qtype == Q.F32 or v.ndim == 1:
                self.w.add_tensor(name, v.astype(np.float32))
            elif qtype == Q.F16:
                self.w.add_tensor(name, v.astype(np.float16))
            else:
                # as convert_hf_to_gguf.py writes quantized tensors
                self.w.add_tensor(name, gguf.quants.quantize(v, qtype), raw_dtype=qtype)
        self.w.write_header_to_file()
        self.w.write_kv_data_to_file()
        self.w.write_tensors_to_file()
        self.w.close()
        print(self.name)


def hparams(m, D, L, H, KV, HD, FF, base, eps):
    w = m.w
    w.add_vocab_size(m.vocab)
    w.add_context_length(512)
    w.add_embedding_length(D)
    w.add_block_count(L)
    w.add_feed_forward_length(FF)
    w.add_head_count(H)
    w.add_head_count_kv(KV)
    w.add_key_length(HD)
    w.add_value_length(HD)
    w.add_rope_dimension_count(HD)
    w.add_rope_freq_base(base)
    w.add_layer_norm_rms_eps(eps)


def weight_extras(m, base, n, scales, input_scales, bias=False, bias_std=0.5):
    """A projection's optional bias, .scale and .input_scale."""
    if bias:
        m.vector(base + ".bias", n, std=bias_std)
    if scales:
        m.scale(base + ".scale")
    if input_scales:
        m.scale(base + ".input_scale", lo=0.01, hi=0.1)


def attention(m, i, D, H, KV, HD, qkv_bias, o_bias, scales, input_scales, qk_norm):
    b = f"blk.{i}."
    m.vector(b + "attn_norm.weight", D, mean=1, std=0.1)
    for name, n in (("attn_q", H * HD), ("attn_k", KV * HD), ("attn_v", KV * HD)):
        m.matrix(b + name + ".weight", n, D)
        weight_extras(m, b + name, n, scales, input_scales, bias=qkv_bias)
    m.matrix(b + "attn_output.weight", D, H * HD)
    weight_extras(m, b + "attn_output", D, scales, input_scales, bias=o_bias, bias_std=0.1)
    if qk_norm == "head":
        m.vector(b + "attn_q_norm.weight", HD, mean=1, std=0.1)
        m.vector(b + "attn_k_norm.weight", HD, mean=1, std=0.1)
    elif qk_norm == "full":
        m.vector(b + "attn_q_norm.weight", H * HD, mean=1, std=0.1)
        m.vector(b + "attn_k_norm.weight", KV * HD, mean=1, std=0.1)


def dense_ffn(m, i, D, FF, bias, scales, input_scales, prefix="ffn_", suffix=""):
    b = f"blk.{i}."
    for name, shape, n in (("gate", (FF, D), FF), ("up", (FF, D), FF), ("down", (D, FF), D)):
        base = b + prefix + name + suffix
        m.matrix(base + ".weight", *shape)
        weight_extras(m, base, n, scales, input_scales, bias=bias, bias_std=0.1)


def experts(m, i, D, F, E, merged, scales, input_scales):
    b = f"blk.{i}."
    m.matrix(b + "ffn_gate_inp.weight", E, D, qtype=Q.F32)
    gate = m.normal((E, F, D), 1 / np.sqrt(D))
    up = m.normal((E, F, D), 1 / np.sqrt(D))
    if merged:
        # convert_hf_to_gguf.py --fuse-gate-up-exps: torch.cat([gate, up], dim=1)
        m.tensors.append([b + "ffn_gate_up_exps.weight", np.concatenate([gate, up], axis=1), m.qtype])
    else:
        m.tensors.append([b + "ffn_gate_exps.weight", gate, m.qtype])
        if scales:
            m.scale(b + "ffn_gate_exps.scale", E)
        if input_scales:
            m.scale(b + "ffn_gate_exps.input_scale", E, lo=0.01, hi=0.1)
        m.tensors.append([b + "ffn_up_exps.weight", up, m.qtype])
        if scales:
            m.scale(b + "ffn_up_exps.scale", E)
        if input_scales:
            m.scale(b + "ffn_up_exps.input_scale", E, lo=0.01, hi=0.1)
    m.matrix(b + "ffn_down_exps.weight", E, D, F)
    if scales:
        m.scale(b + "ffn_down_exps.scale", E)
    if input_scales:
        m.scale(b + "ffn_down_exps.input_scale", E, lo=0.01, hi=0.1)


def head(m, D, tied, out_bias=False):
    m.vector("output_norm.weight", D, mean=1, std=0.1)
    if not tied:
        m.matrix("output.weight", m.vocab, D)
        if out_bias:
            m.vector("output.bias", m.vocab, std=0.5)


def dense(name, arch, qtype, seed, qkv_bias=False, o_bias=False, ffn_bias=False, out_bias=False,
          scales=False, input_scales=False, tied=False, extra=()):
    """llama, qwen2 or qwen3: 2 blocks of 4 heads (2 KV heads) of 16."""
    D, L, H, KV, HD, FF = 64, 2, 4, 2, 16, 128
    m = Model(name, arch, qtype, seed, pre="qwen2" if arch == "qwen2" else "default")
    hparams(m, D, L, H, KV, HD, FF, 1e6 if arch != "llama" else 10000, 1e-6)
    m.matrix("token_embd.weight", m.vocab, D)
    for i in range(L):
        attention(m, i, D, H, KV, HD, qkv_bias, o_bias, scales, input_scales, "head" if arch == "qwen3" else None)
        m.vector(f"blk.{i}.ffn_norm.weight", D, mean=1, std=0.1)
        dense_ffn(m, i, D, FF, ffn_bias, scales, input_scales)
    head(m, D, tied, out_bias)
    for t in extra:
        m.vector(t, D, std=0.1)
    return m


def moe(name, arch, qtype, seed, merged=False, qkv_bias=False, scales=False, input_scales=False):
    """qwen3moe or olmoe: 2 blocks, 8 experts of 64, 2 used."""
    D, L, H, KV, HD, F, E, K = 64, 2, 4, 2, 16, 64, 8, 2
    if arch == "olmoe":
        KV = H
    m = Model(name, arch, qtype, seed)
    hparams(m, D, L, H, KV, HD, F, 1e6, 1e-6)
    m.w.add_expert_count(E)
    m.w.add_expert_used_count(K)
    if arch == "qwen3moe":
        m.w.add_expert_feed_forward_length(F)
    m.matrix("token_embd.weight", m.vocab, D)
    for i in range(L):
        attention(m, i, D, H, KV, HD, qkv_bias, False, scales, input_scales, "head" if arch == "qwen3moe" else "full")
        m.vector(f"blk.{i}.ffn_norm.weight", D, mean=1, std=0.1)
        experts(m, i, D, F, E, merged, scales, input_scales)
    head(m, D, False)
    return m


def deepseek2(name, qtype, seed, merged=False, scales=False, glm=False, nextn=False):
    """deepseek2 (MLA): 3 blocks, the first dense, 8 experts of 64 (2
    used) and a shared one; glm routes by sigmoid with a selection bias,
    normalised and scaled as GLM-4.7-Flash; nextn appends GLM-4.7-Flash's
    multi-token-prediction block."""
    D, L, H, FF, F, E, K = 64, 3, 4, 128, 64, 8, 2
    RQ, RKV, NOPE, ROPE, V = 64, 64, 32, 16, 32
    m = Model(name, "deepseek2", qtype, seed)
    w = m.w
    w.add_vocab_size(m.vocab)
    w.add_context_length(512)
    w.add_embedding_length(D)
    w.add_block_count(L + (1 if nextn else 0))
    w.add_feed_forward_length(FF)
    w.add_head_count(H)
    w.add_head_count_kv(1)
    w.add_rope_freq_base(10000)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_q_lora_rank(RQ)
    w.add_kv_lora_rank(RKV)
    w.add_key_length(RKV + ROPE)
    w.add_value_length(RKV)
    w.add_key_length_mla(NOPE + ROPE)
    w.add_value_length_mla(V)
    w.add_rope_dimension_count(ROPE)
    w.add_leading_dense_block_count(1)
    w.add_expert_feed_forward_length(F)
    w.add_expert_count(E)
    w.add_expert_used_count(K)
    w.add_expert_shared_count(1)
    if glm:
        w.add_expert_gating_func(gguf.ExpertGatingFuncType.SIGMOID)
        w.add_expert_weights_norm(True)
        w.add_expert_weights_scale(1.8)
    else:
        w.add_expert_gating_func(gguf.ExpertGatingFuncType.SOFTMAX)
        w.add_expert_weights_scale(1.0)
    if nextn:
        w.add_nextn_predict_layers(1)
    m.matrix("token_embd.weight", m.vocab, D)
    for i in range(L + (1 if nextn else 0)):
        b = f"blk.{i}."
        m.vector(b + "attn_norm.weight", D, mean=1, std=0.1)
        m.matrix(b + "attn_q_a.weight", RQ, D)
        m.vector(b + "attn_q_a_norm.weight", RQ, mean=1, std=0.1)
        m.matrix(b + "attn_q_b.weight", H * (NOPE + ROPE), RQ)
        m.matrix(b + "attn_kv_a_mqa.weight", RKV + ROPE, D)
        m.vector(b + "attn_kv_a_norm.weight", RKV, mean=1, std=0.1)
        m.matrix(b + "attn_k_b.weight", H, RKV, NOPE)
        m.matrix(b + "attn_v_b.weight", H, V, RKV)
        m.matrix(b + "attn_output.weight", D, H * V)
        weight_extras(m, b + "attn_output", D, scales, scales)
        m.vector(b + "ffn_norm.weight", D, mean=1, std=0.1)
        if i == 0:
            dense_ffn(m, i, D, FF, False, scales, scales)
            continue
        if glm:
            m.vector(b + "exp_probs_b.bias", E, std=0.01)
        experts(m, i, D, F, E, merged, scales, scales)
        dense_ffn(m, i, D, F, False, scales, scales, suffix="_shexp")
        if i == L:
            # the NextN block's own tensors
            m.matrix(b + "nextn.eh_proj.weight", D, 2 * D)
            m.vector(b + "nextn.enorm.weight", D, mean=1, std=0.1)
            m.vector(b + "nextn.hnorm.weight", D, mean=1, std=0.1)
            m.vector(b + "nextn.shared_head_norm.weight", D, mean=1, std=0.1)
    head(m, D, False)
    return m


def split_copy(m, name):
    """The merged model m with each ffn_gate_up_exps split back into
    ffn_gate_exps and ffn_up_exps (the same values)."""
    s = Model(name, m.w.arch, m.qtype, 0)
    s.w.kv_data = [dict(m.w.kv_data[0])]
    s.w.kv_data[0][gguf.Keys.General.NAME] = gguf.GGUFValue("ember test " + name, gguf.GGUFValueType.STRING)
    for tname, v, qtype in m.tensors:
        if tname.endswith("ffn_gate_up_exps.weight"):
            F = v.shape[1] // 2
            base = tname[: -len("gate_up_exps.weight")]
            s.tensors.append([base + "gate_exps.weight", np.ascontiguousarray(v[:, :F]), qtype])
            s.tensors.append([base + "up_exps.weight", np.ascontiguousarray(v[:, F:]), qtype])
        else:
            s.tensors.append([tname, v, qtype])
    return s


def pow2_scales(m, name):
    """m with every .scale a power of two, and its twin NAME-baked: the
    weights times those scales (exactly, in F32) and no .scale tensors,
    the biases of feed-forward products (which llama.cpp adds before the
    scale) scaled with them."""
    baked = Model(name, m.w.arch, m.qtype, 0)
    baked.w.kv_data = [dict(m.w.kv_data[0])]
    baked.w.kv_data[0][gguf.Keys.General.NAME] = gguf.GGUFValue("ember test " + name, gguf.GGUFValueType.STRING)
    scales = {}
    for t in m.tensors:
        if t[0].endswith(".scale"):
            t[1] = np.float32(2.0) ** m.rng.integers(-2, 3, t[1].shape).astype(np.float32)
            scales[t[0][: -len(".scale")]] = t[1]
    for tname, v, qtype in m.tensors:
        if tname.endswith(".scale") or tname.endswith(".input_scale"):
            continue
        base = tname.rsplit(".", 1)[0]
        s = scales.get(base)
        if s is not None and tname.endswith(".weight"):
            # per expert: the stack's first numpy axis
            v = v * (s.reshape(-1, 1, 1) if v.ndim == 3 else s[0])
        elif s is not None and tname.endswith(".bias") and ".ffn_" in tname:
            v = v * s[0]
        baked.tensors.append([tname, v.astype(np.float32), qtype])
    return baked


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    # what llama.cpp runs: ember must generate its tokens
    dense("qwen2-q8_0", "qwen2", Q.Q8_0, 19, qkv_bias=True, tied=True).save()
    dense("qwen2-f16-output-bias", "qwen2", Q.F16, 2, qkv_bias=True, out_bias=True).save()
    dense("llama-biases-f32", "llama", Q.F32, 3, qkv_bias=True, o_bias=True, ffn_bias=True).save()
    dense("llama-scales-q8_0", "llama", Q.Q8_0, 4, qkv_bias=True, o_bias=True, ffn_bias=True,
          scales=True, input_scales=True).save()
    dense("qwen3-scales-q4_0", "qwen3", Q.Q4_0, 5, qkv_bias=True, scales=True, input_scales=True, tied=True).save()
    moe("qwen3moe-scales-f32", "qwen3moe", Q.F32, 6, qkv_bias=True, scales=True, input_scales=True).save()
    moe("olmoe-biases-q8_0", "olmoe", Q.Q8_0, 7, qkv_bias=True).save()
    deepseek2("deepseek2-merged-q8_0", Q.Q8_0, 8, merged=True, nextn=True).save()
    deepseek2("glm-merged-f32", Q.F32, 9, merged=True, glm=True).save()

    # merged against split, where llama.cpp (de3ff81) takes no merged stack
    for name, mk in (("qwen3moe-q4_0", lambda: moe("qwen3moe-q4_0-merged", "qwen3moe", Q.Q4_0, 10, merged=True)),
                     ("olmoe-f32", lambda: moe("olmoe-f32-merged", "olmoe", Q.F32, 11, merged=True)),
                     ("deepseek2-q8_0", lambda: deepseek2("deepseek2-q8_0-merged", Q.Q8_0, 12, merged=True, glm=True))):
        m = mk()
        s = split_copy(m, name + "-split")
        m.save()
        s.save()

    # scales where llama.cpp loads them and leaves them out: against the
    # same weights with the scales multiplied in
    for mk in (lambda: dense("qwen2-scaled", "qwen2", Q.F32, 13, qkv_bias=True, scales=True, input_scales=True),
               lambda: moe("olmoe-scaled", "olmoe", Q.F32, 14, scales=True, input_scales=True),
               lambda: deepseek2("deepseek2-scaled", Q.F32, 15, scales=True, glm=True)):
        m = mk()
        b = pow2_scales(m, m.name.replace("scaled", "baked"))
        m.save()
        b.save()

    # tensors no loader of the architecture takes
    dense("llama-unknown-tensors", "llama", Q.F32, 16,
          extra=("blk.0.attn_norm.bias", "blk.1.ffn_norm.bias")).save()
    m = dense("qwen2-ffn-bias", "qwen2", Q.F32, 17, qkv_bias=True)
    m.vector("blk.1.ffn_up.bias", 128, std=0.1)
    m.save()


main()
