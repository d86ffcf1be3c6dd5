"""Multi-head latent attention's decoupled RoPE: the absorbed form, the offsets, and why the
rotated part has to be separate from the latent.

The comparison with DeepSeek-V3's attention in Hugging Face Transformers is in
tests/oracle/test_mla_oracle.py.
"""

import math

import numpy as np
import pytest

from posenc import (
    apply_rotary,
    interleaved_to_half,
    mla_absorbed_scores,
    mla_scores,
    mla_softmax_scale,
    rotary_frequencies,
)

N_HEADS, NOPE, ROPE, RANK = 3, 8, 4, 16  # n_heads, qk_nope_head_dim, qk_rope_head_dim, kv_lora_rank
V3_YARN = {
    "rope_type": "yarn",
    "factor": 40.0,
    "mscale": 1.0,
    "mscale_all_dim": 1.0,
    "original_max_position_embeddings": 4096,
    "beta_fast": 32,
    "beta_slow": 1,
    "rope_theta": 10000.0,
}


def mla_inputs(seed, n_q=6, n_k=6):
    """Random queries, latents, shared rotated keys and W^UK, and each head's decompressed key."""
    rng = np.random.default_rng(seed)
    q_nope = rng.normal(size=(N_HEADS, n_q, NOPE))
    q_rope = rng.normal(size=(N_HEADS, n_q, ROPE))
    c_kv = rng.normal(size=(n_k, RANK))
    k_rope = rng.normal(size=(n_k, ROPE))
    w_uk = rng.normal(size=(N_HEADS, NOPE, RANK))
    k_nope = np.einsum("nc,hdc->hnd", c_kv, w_uk)  # k_nope[h] = c_kv @ w_uk[h].T
    return q_nope, q_rope, c_kv, k_rope, w_uk, k_nope


def test_mla_softmax_scale_is_deepseek_v3s():
    assert mla_softmax_scale(192) == 192**-0.5
    # DeepSeek-V3's rope_scaling: (1 / sqrt(192)) * (0.1 * ln 40 + 1) ** 2.
    assert mla_softmax_scale(192, V3_YARN) == pytest.approx(0.1352337788608801, rel=1e-15)
    assert mla_softmax_scale(192, V3_YARN) / mla_softmax_scale(192) == pytest.approx(
        (0.1 * math.log(40.0) + 1.0) ** 2, rel=1e-15
    )
    # DeepSeek-V2's coefficient 0.707 and factor 40: only mscale_all_dim counts.
    v2 = {"type": "yarn", "factor": 40.0, "mscale": 99.0, "mscale_all_dim": 0.707}
    assert mla_softmax_scale(192, v2) == pytest.approx(
        192**-0.5 * (0.0707 * math.log(40.0) + 1.0) ** 2, rel=1e-15
    )


@pytest.mark.parametrize(
    "rope_parameters",
    [
        None,
        {},
        {"rope_type": "default", "rope_theta": 10000.0, "mscale_all_dim": 1.0},
        {"rope_type": "yarn", "factor": 40.0, "mscale": 1.0},  # no mscale_all_dim
        {"rope_type": "yarn", "factor": 40.0, "mscale_all_dim": 0.0},
        {"rope_type": "yarn", "factor": 1.0, "mscale_all_dim": 1.0},  # ln 1 = 0: m = 1
        {"rope_type": "yarn", "factor": 0.5, "mscale_all_dim": 1.0},  # m = 1 below 1 too
    ],
)
def test_mla_softmax_scale_is_plain_without_mscale_all_dim(rope_parameters):
    assert mla_softmax_scale(24, rope_parameters) == 24**-0.5


@pytest.mark.parametrize("rope_interleave", [True, False])
@pytest.mark.parametrize(("n_q", "n_k"), [(6, 6), (1, 9), (3, 7)])
def test_absorbed_equals_decompressed(rope_interleave, n_q, n_k):
    q_nope, q_rope, c_kv, k_rope, w_uk, k_nope = mla_inputs(n_q + n_k, n_q, n_k)
    options = {
        "inv_freq": rotary_frequencies(ROPE, base=50.0),
        "position_ids": np.arange(n_k) + 11,
        "rope_interleave": rope_interleave,
        "softmax_scale": mla_softmax_scale(NOPE + ROPE, V3_YARN),
    }
    naive = mla_scores(q_nope, q_rope, k_nope, k_rope, **options)
    absorbed = mla_absorbed_scores(q_nope, q_rope, c_kv[None], k_rope[None], w_uk, **options)
    assert naive.shape == absorbed.shape == (N_HEADS, n_q, n_k)
    np.testing.assert_allclose(absorbed, naive, rtol=1e-12, atol=0)


def test_scores_by_hand():
    # One head: q = [q_nope, R_m q_rope], k = [k_nope, R_n k_rope], with 2 rotated dimensions
    # turning by 1 radian per position, scaled by softmax_scale and attention_factor ** 2.
    q_nope, k_nope = np.full((1, 3, 2), 0.5), np.full((1, 3, 2), 2.0)  # q . k = 2 everywhere
    q_rope, k_rope = np.tile([1.0, 0.0], (1, 3, 1)), np.tile([0.0, 3.0], (3, 1))
    scores = mla_scores(
        q_nope, q_rope, k_nope, k_rope, inv_freq=[1.0], softmax_scale=0.5, attention_factor=2.0
    )
    offsets = np.subtract.outer(np.arange(3), np.arange(3))  # m - n
    # (cos m, sin m) . 3 (-sin n, cos n) = 3 sin(m - n)
    expected = 0.5 * (2.0 + 4.0 * 3.0 * np.sin(offsets))
    np.testing.assert_allclose(scores[0], expected, rtol=1e-14, atol=1e-14)
    # Default scale: 1 / sqrt(qk_nope_head_dim + qk_rope_head_dim).
    plain = mla_scores(q_nope, q_rope, k_nope, k_rope, inv_freq=[1.0])
    np.testing.assert_allclose(plain[0], (2.0 + 3.0 * np.sin(offsets)) / 2.0, rtol=1e-14)


@pytest.mark.parametrize("rope_interleave", [True, False])
def test_scores_depend_on_the_positions_only_through_the_offset(rope_interleave):
    q_nope, q_rope, c_kv, k_rope, w_uk, _ = mla_inputs(1)
    options = {"inv_freq": rotary_frequencies(ROPE), "rope_interleave": rope_interleave}
    positions = np.array([0, 1, 2, 5, 8, 13])
    scores = mla_absorbed_scores(
        q_nope, q_rope, c_kv, k_rope, w_uk, position_ids=positions, **options
    )
    shifted = mla_absorbed_scores(
        q_nope, q_rope, c_kv, k_rope, w_uk, position_ids=positions + 1000, **options
    )
    np.testing.assert_allclose(shifted, scores, rtol=1e-9, atol=1e-12)
    # Other offsets change the rotated part, and only it: the unrotated part has no position.
    spread = mla_absorbed_scores(
        q_nope, q_rope, c_kv, k_rope, w_uk, position_ids=2 * positions, **options
    )
    assert np.max(np.abs(spread - scores)) > 0.1
    no_rope = {"q_rope": np.zeros_like(q_rope), "k_rope": np.zeros_like(k_rope)}
    for where in (positions, 2 * positions):
        np.testing.assert_array_equal(
            mla_absorbed_scores(
                q_nope, c_kv=c_kv, w_uk=w_uk, position_ids=where, **no_rope, **options
            ),
            mla_absorbed_scores(q_nope, c_kv=c_kv, w_uk=w_uk, **no_rope, **options),
        )


def test_queries_after_a_cache_are_the_last_rows():
    q_nope, q_rope, c_kv, k_rope, w_uk, _ = mla_inputs(2, n_q=7, n_k=7)
    options = {"inv_freq": rotary_frequencies(ROPE), "position_ids": np.arange(7) + 3}
    full = mla_absorbed_scores(q_nope, q_rope, c_kv, k_rope, w_uk, **options)
    step = mla_absorbed_scores(q_nope[:, 5:], q_rope[:, 5:], c_kv, k_rope, w_uk, **options)
    np.testing.assert_allclose(step, full[:, 5:], rtol=1e-12, atol=1e-14)


def deepseek_reference(q_nope, q_pe, kv, k_pe, wkv_b, freqs, start, softmax_scale):
    """DeepSeek-V3's own MLA scores, transcribed: deepseek-ai/DeepSeek-V3, inference/model.py,
    `apply_rotary_emb` (each pair (2i, 2i + 1) a complex number times exp(i m theta)) and
    `MLA.forward`'s "absorb" branch, for one sequence; queries at start, start + 1, ..."""
    n_q, n_k = q_pe.shape[1], k_pe.shape[0]
    freqs_cis = np.exp(1j * np.outer(np.arange(n_k), freqs))  # precompute_freqs_cis

    def as_complex(x):  # torch.view_as_complex of the pairs (2i, 2i + 1)
        return x[..., 0::2] + 1j * x[..., 1::2]

    q_pe = as_complex(q_pe) * freqs_cis[start : start + n_q]
    k_pe = as_complex(k_pe) * freqs_cis
    q_nope = np.einsum("hsd,hdc->hsc", q_nope, wkv_b[:, : q_nope.shape[-1]])
    # The real dot product of two rotated vectors: the real part of q . conj(k).
    rotated = np.real(np.einsum("hsr,tr->hst", q_pe, np.conj(k_pe)))
    return (np.einsum("hsc,tc->hst", q_nope, kv) + rotated) * softmax_scale


@pytest.mark.parametrize(("n_q", "rope_dim"), [(6, 4), (2, 8)])
def test_absorbed_is_deepseeks_inference_code(n_q, rope_dim):
    rng = np.random.default_rng(rope_dim)
    q_nope = rng.normal(size=(N_HEADS, n_q, NOPE))
    q_rope = rng.normal(size=(N_HEADS, n_q, rope_dim))
    c_kv, k_rope = rng.normal(size=(6, RANK)), rng.normal(size=(6, rope_dim))
    wkv_b = rng.normal(size=(N_HEADS, NOPE + 5, RANK))  # keys' rows, then v_head_dim 5
    freqs = rotary_frequencies(rope_dim, base=10.0)
    scale = mla_softmax_scale(NOPE + rope_dim, V3_YARN)
    expected = deepseek_reference(q_nope, q_rope, c_kv, k_rope, wkv_b, freqs, 6 - n_q, scale)
    ours = mla_absorbed_scores(
        q_nope, q_rope, c_kv, k_rope, wkv_b[:, :NOPE], inv_freq=freqs, softmax_scale=scale
    )
    np.testing.assert_allclose(ours, expected, rtol=1e-12, atol=1e-13)


def test_rope_interleave_only_reorders_the_rotated_dimensions():
    rope_dim = 8  # for 4 dimensions the two reorderings are the same permutation
    q_nope, _, _, _, _, k_nope = mla_inputs(3)
    rng = np.random.default_rng(3)
    q_rope, k_rope = rng.normal(size=(N_HEADS, 6, rope_dim)), rng.normal(size=(6, rope_dim))
    inv_freq = rotary_frequencies(rope_dim)
    interleaved = mla_scores(q_nope, q_rope, k_nope, k_rope, inv_freq=inv_freq)
    half = mla_scores(
        q_nope,
        interleaved_to_half(q_rope, head_dim=rope_dim),
        k_nope,
        interleaved_to_half(k_rope, head_dim=rope_dim),
        inv_freq=inv_freq,
        rope_interleave=False,
    )
    np.testing.assert_allclose(half, interleaved, rtol=1e-12, atol=1e-14)
    unconverted = mla_scores(
        q_nope, q_rope, k_nope, k_rope, inv_freq=inv_freq, rope_interleave=False
    )
    assert np.max(np.abs(unconverted - interleaved)) > 0.1


def best_absorbed_fit(q, c, scores):
    """The one matrix A (d, kv_lora_rank) closest to scores[m, n] = q[m] . A c[n] (least squares),
    and the relative residual of that fit."""
    design = np.einsum("md,nc->mndc", q, c).reshape(q.shape[0] * c.shape[0], -1)
    fit, *_ = np.linalg.lstsq(design, scores.ravel(), rcond=None)
    residual = design @ fit - scores.ravel()
    return fit.reshape(q.shape[1], c.shape[1]), np.linalg.norm(residual) / np.linalg.norm(scores)


def test_rope_on_the_decompressed_keys_cannot_be_absorbed():
    # DeepSeek-V2, section 2.1.3: rotate each head's whole key, R_n W^UK c_n, and the score
    # q_m . R_m^T R_n W^UK c_n = q_m . R_(n-m) W^UK c_n has a matrix that changes with n - m.
    rng = np.random.default_rng(4)
    n, d = 32, NOPE
    q, c, w_uk = rng.normal(size=(n, d)), rng.normal(size=(n, RANK)), rng.normal(size=(d, RANK))
    inv_freq = rotary_frequencies(d)
    keys = apply_rotary(c @ w_uk.T, inv_freq=inv_freq)  # the decompressed keys, rotated
    coupled = apply_rotary(q, inv_freq=inv_freq) @ keys.T
    # W^UK itself, absorbed into the query, is right only where the query and key share a
    # position (R_m^T R_m = I) ...
    absorbed = q @ w_uk @ c.T
    np.testing.assert_allclose(np.diag(absorbed), np.diag(coupled), rtol=1e-12)
    assert np.linalg.norm(absorbed - coupled) / np.linalg.norm(coupled) > 0.5  # 1.05 here
    # ... and no single matrix does much better: the best one misses by half or more.
    _, miss = best_absorbed_fit(q, c, coupled)
    assert miss > 0.5  # 0.68 here
    # With the position moved to a separate shared part, the same fit finds W^UK exactly.
    no_rope = {"q_rope": np.zeros((1, n, 2)), "k_rope": np.zeros((n, 2))}
    decoupled = mla_scores(
        q[None], k_nope=(c @ w_uk.T)[None], inv_freq=[1.0], softmax_scale=1.0, **no_rope
    )[0]
    found, miss = best_absorbed_fit(q, c, decoupled)
    assert miss < 1e-12
    np.testing.assert_allclose(found, w_uk, rtol=1e-8, atol=1e-10)


def test_float32_inputs_give_float64_scores():
    q_nope, q_rope, c_kv, k_rope, w_uk, _ = mla_inputs(5)
    args = [a.astype(np.float32) for a in (q_nope, q_rope, c_kv, k_rope, w_uk)]
    scores = mla_absorbed_scores(*args, inv_freq=rotary_frequencies(ROPE))
    assert scores.dtype == np.float64


Q_NOPE, Q_ROPE, C_KV, K_ROPE, W_UK, K_NOPE = mla_inputs(6)
FREQ = rotary_frequencies(ROPE)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: mla_softmax_scale(0), ValueError, "qk_head_dim must be an integer >= 1"),
        (lambda: mla_softmax_scale(19.5), TypeError, "qk_head_dim must be an integer"),
        (lambda: mla_softmax_scale(192, [("rope_type", "yarn")]), TypeError, "mapping"),
        (
            lambda: mla_softmax_scale(192, {"rope_type": "yarn", "mscale_all_dim": 1.0}),
            KeyError,
            "needs 'factor'",
        ),
        (
            lambda: mla_softmax_scale(192, {**V3_YARN, "factor": -2.0}),
            ValueError,
            "factor must be a finite real number > 0",
        ),
        (
            lambda: mla_softmax_scale(192, {**V3_YARN, "mscale_all_dim": "1"}),
            TypeError,
            "mscale_all_dim",
        ),
        (
            lambda: mla_softmax_scale(192, {"full_attention": V3_YARN}),
            ValueError,
            "split by layer type",
        ),
        (
            lambda: mla_scores(Q_NOPE[0], Q_ROPE, K_NOPE, K_ROPE, inv_freq=FREQ),
            ValueError,
            r"q_nope must have shape \(n_heads, n_q, qk_nope_head_dim\)",
        ),
        (
            lambda: mla_scores(Q_NOPE, Q_ROPE[:2], K_NOPE, K_ROPE, inv_freq=FREQ),
            ValueError,
            "same n_heads and n_q",
        ),
        (
            lambda: mla_scores(Q_NOPE, Q_ROPE, K_NOPE[:, :, :4], K_ROPE, inv_freq=FREQ),
            ValueError,
            "k_nope must have shape",
        ),
        (
            lambda: mla_scores(Q_NOPE, Q_ROPE, K_NOPE, np.stack([K_ROPE] * 2), inv_freq=FREQ),
            ValueError,
            "one head shared by every query head",
        ),
        (
            lambda: mla_scores(Q_NOPE, Q_ROPE, K_NOPE, K_ROPE[:, :2], inv_freq=FREQ),
            ValueError,
            "same qk_rope_head_dim",
        ),
        (
            lambda: mla_scores(Q_NOPE, Q_ROPE, K_NOPE, K_ROPE[:5], inv_freq=FREQ),
            ValueError,
            "n_q <= n_k",
        ),
        (
            lambda: mla_scores(Q_NOPE[:, :4], Q_ROPE[:, :4], K_NOPE, K_ROPE[:5], inv_freq=FREQ),
            ValueError,
            "k_nope and k_rope must have the same n_k",
        ),
        (
            lambda: mla_scores(Q_NOPE, Q_ROPE, K_NOPE, K_ROPE, inv_freq=FREQ[:1]),
            ValueError,
            r"inv_freq must have shape \(qk_rope_head_dim // 2,\)",
        ),
        (
            lambda: mla_scores(
                Q_NOPE, Q_ROPE, K_NOPE, K_ROPE, inv_freq=FREQ, position_ids=np.arange(5)
            ),
            ValueError,
            r"position_ids must have shape \(n_k,\) = \(6,\)",
        ),
        (
            lambda: mla_scores(Q_NOPE, Q_ROPE, K_NOPE, K_ROPE, inv_freq=FREQ, rope_interleave=1),
            TypeError,
            "rope_interleave must be True or False",
        ),
        (
            lambda: mla_scores(Q_NOPE, Q_ROPE, K_NOPE, K_ROPE, inv_freq=FREQ, softmax_scale=0.0),
            ValueError,
            "softmax_scale must be a finite real number > 0",
        ),
        (
            lambda: mla_scores(Q_NOPE.astype(complex), Q_ROPE, K_NOPE, K_ROPE, inv_freq=FREQ),
            TypeError,
            "q_nope must hold real numbers",
        ),
        (
            lambda: mla_absorbed_scores(
                Q_NOPE, Q_ROPE, C_KV, K_ROPE, W_UK[:, :, :4], inv_freq=FREQ
            ),
            ValueError,
            r"w_uk must have shape \(n_heads, qk_nope_head_dim, kv_lora_rank\) = \(3, 8, 16\)",
        ),
        (
            lambda: mla_absorbed_scores(Q_NOPE, Q_ROPE, C_KV[:5], K_ROPE, W_UK, inv_freq=FREQ),
            ValueError,
            "c_kv and k_rope must have the same n_k",
        ),
    ],
)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()
