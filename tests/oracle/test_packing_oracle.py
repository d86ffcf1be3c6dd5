"""Packed sequences against Hugging Face Transformers: its collator, its masks and a tiny Llama.

`DataCollatorWithFlattening` makes the position ids, `masking_utils` finds the documents in
them and builds the mask (`find_packed_sequence_indices`, `create_causal_mask`), and a tiny
seeded `LlamaForCausalLM` (eager attention, no weights downloaded) shows that a packed row
gives each document its logits alone, as the NumPy layer does in tests/lib/test_packing.py.
"""

import importlib

import numpy as np
import pytest

from posenc import (
    mask_to_bias,
    packed_attention_mask,
    packed_document_ids,
    packed_position_ids,
)

DOCUMENTS = [[5, 6, 7], [8, 9], [10, 11, 12, 13]]  # token ids, lengths [3, 2, 4]
LENGTHS = [len(document) for document in DOCUMENTS]
PACKED = [token for document in DOCUMENTS for token in document]  # one row, no padding
LEAK = 1e-2  # measured: 0.15 and 0.27 where documents see each other
LOGITS_ATOL = 1e-6  # eager attention takes its softmax in float32 (measured: 8e-9)


@pytest.fixture(scope="module")
def masking_utils(transformers):
    assert transformers.__version__ == "5.24.0", "the oracle tests are written for 5.24.0"
    return importlib.import_module("transformers.masking_utils")


def llama_config(transformers, attn_implementation, **extra):
    return transformers.LlamaConfig(
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        vocab_size=32,
        max_position_embeddings=64,
        attn_implementation=attn_implementation,
        **extra,
    )


@pytest.fixture(scope="module")
def llama(transformers, torch):
    """A tiny LlamaForCausalLM with seeded random weights, in float64, eager attention."""
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(llama_config(transformers, "eager"))
    return model.double().eval()


@pytest.mark.parametrize(
    "documents", [DOCUMENTS, [[1]], [[1, 2], [3], [4, 5, 6, 7, 8], [9]], [[4, 4, 4, 4]]]
)
@pytest.mark.parametrize("return_tensors", ["np", "pt"])
def test_packed_position_ids_are_data_collator_with_flattening(
    transformers, documents, return_tensors
):
    collator = transformers.DataCollatorWithFlattening(
        return_position_ids=True, return_tensors=return_tensors
    )
    batch = collator([{"input_ids": document} for document in documents])
    expected = np.asarray(batch["position_ids"])
    assert expected.shape == (1, sum(map(len, documents)))
    np.testing.assert_array_equal(packed_position_ids([len(d) for d in documents]), expected[0])


@pytest.mark.parametrize(
    "position_ids",
    [
        packed_position_ids(LENGTHS),
        packed_position_ids([1, 1, 1]),
        np.array([5, 6, 7, 0, 1]),
        np.array([0, 1, 1, 2, 0, 3]),
        np.array([3, 2, 1, 0]),
    ],
)
def test_packed_document_ids_are_find_packed_sequence_indices(masking_utils, torch, position_ids):
    expected = masking_utils.find_packed_sequence_indices(torch.from_numpy(position_ids[None]))
    np.testing.assert_array_equal(packed_document_ids(position_ids[None]), expected.numpy())


def test_packed_document_ids_are_zeros_where_transformers_finds_no_packing(masking_utils, torch):
    # One document: Transformers returns None (no packed mask needed); here all ids are 0.
    ids = np.arange(6)
    assert masking_utils.find_packed_sequence_indices(torch.from_numpy(ids[None])) is None
    np.testing.assert_array_equal(packed_document_ids(ids), np.zeros(6))


@pytest.mark.parametrize("attn_implementation", ["eager", "sdpa"])
@pytest.mark.parametrize(
    "position_ids",
    [
        packed_position_ids(LENGTHS)[None],
        np.stack([packed_position_ids([2, 5]), packed_position_ids([4, 1, 2])]),
        np.array([[5, 6, 7, 0, 1, 2, 0]]),
    ],
)
def test_packed_attention_mask_is_create_causal_mask(
    transformers, masking_utils, torch, attn_implementation, position_ids
):
    config = llama_config(transformers, attn_implementation)
    batch, n = position_ids.shape
    mask = masking_utils.create_causal_mask(
        config=config,
        inputs_embeds=torch.zeros(batch, n, config.hidden_size),
        attention_mask=None,
        cache=None,
        position_ids=torch.from_numpy(position_ids),
    )
    assert tuple(mask.shape) == (batch, 1, n, n)
    # sdpa: True may attend; eager: 0 may attend, the dtype's smallest number may not.
    allowed = mask.numpy() if mask.dtype == torch.bool else mask.numpy() == 0
    np.testing.assert_array_equal(packed_attention_mask(position_ids=position_ids), allowed[:, 0])


def logits(llama, torch, input_ids, **kwargs):
    with torch.no_grad():
        return llama(torch.tensor([input_ids]), **kwargs).logits[0].numpy()


def each_document_alone(llama, torch):
    return np.concatenate([logits(llama, torch, d, use_cache=False) for d in DOCUMENTS])


def per_document_difference(packed, alone):
    starts = np.cumsum(LENGTHS) - LENGTHS
    return [
        float(np.abs(packed[s : s + n] - alone[s : s + n]).max())
        for s, n in zip(starts, LENGTHS, strict=True)
    ]


def test_packed_position_ids_give_llama_each_document_alone(llama, torch):
    # No attention_mask and no cache: create_causal_mask finds the documents in the ids.
    ids = torch.from_numpy(packed_position_ids(LENGTHS)[None])
    packed = logits(llama, torch, PACKED, position_ids=ids, use_cache=False)
    np.testing.assert_allclose(packed, each_document_alone(llama, torch), atol=LOGITS_ATOL)


def test_packed_attention_mask_as_a_4d_bias_gives_llama_each_document_alone(llama, torch):
    # A 4-D mask is used as it is, even with a cache: the documents stay apart.
    ids = torch.from_numpy(packed_position_ids(LENGTHS)[None])
    bias = torch.from_numpy(mask_to_bias(packed_attention_mask(LENGTHS))[None, None])
    packed = logits(llama, torch, PACKED, position_ids=ids, attention_mask=bias, use_cache=True)
    np.testing.assert_allclose(packed, each_document_alone(llama, torch), atol=LOGITS_ATOL)


@pytest.mark.parametrize(
    "case",
    [
        "with a cache",  # use_cache=True, the model's default: no packing detection
        "with an all-ones attention_mask",  # a 2-D attention_mask turns it off as well
    ],
)
def test_packed_position_ids_alone_leak_in_llama_when_transformers_builds_no_packed_mask(
    llama, torch, case
):
    ids = torch.from_numpy(packed_position_ids(LENGTHS)[None])
    if case == "with a cache":
        kwargs = {"use_cache": True}
    else:
        kwargs = {"use_cache": False, "attention_mask": torch.ones_like(ids)}
    packed = logits(llama, torch, PACKED, position_ids=ids, **kwargs)
    first, second, third = per_document_difference(packed, each_document_alone(llama, torch))
    assert first < LOGITS_ATOL
    assert second > LEAK
    assert third > LEAK


@pytest.mark.parametrize("lengths", [LENGTHS, [1], [2, 7, 1, 1]])
def test_packed_document_ids_match_flash_attention_cu_seq_lens(transformers, torch, lengths):
    # The flash-attention path finds the documents by another rule (a document starts at
    # each id equal to the row's smallest); on restarted ids the two rules agree.
    fa_utils = importlib.import_module("transformers.modeling_flash_attention_utils")
    ids = packed_position_ids(lengths)
    (cu_seq_lens, _), _ = fa_utils.prepare_fa_kwargs_from_position_ids(torch.from_numpy(ids[None]))
    starts = np.flatnonzero(np.diff(packed_document_ids(ids), prepend=-1))
    np.testing.assert_array_equal(cu_seq_lens.numpy(), [*starts, len(ids)])
    np.testing.assert_array_equal(cu_seq_lens.numpy(), np.cumsum([0, *lengths]))


def test_packed_document_ids_and_flash_attention_differ_on_ids_that_jump(transformers, torch):
    # [0, 1, 2, 5, 6]: two documents for masking_utils (and here), one for flash attention.
    fa_utils = importlib.import_module("transformers.modeling_flash_attention_utils")
    ids = np.array([0, 1, 2, 5, 6])
    (cu_seq_lens, _), _ = fa_utils.prepare_fa_kwargs_from_position_ids(torch.from_numpy(ids[None]))
    np.testing.assert_array_equal(cu_seq_lens.numpy(), [0, 5])
    np.testing.assert_array_equal(packed_document_ids(ids), [0, 0, 0, 1, 1])
