# The moe_router_top2 task: the router of a top-2 mixture-of-experts layer (Mixtral-style):
# logits = x @ wg^T over E experts, probs = softmax(logits), the two most probable experts per
# token and their probabilities renormalized to sum to 1. The gate weights are a task input
# (drawn by kta). Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class MoeRouterTop2(torch.nn.Module):
    """The baseline: what a PyTorch MoE layer runs, a GEMM for the logits, a softmax over the
    experts, topk, and a division that renormalizes the two kept probabilities."""

    def forward(self, x, wg):
        probs = torch.softmax(F.linear(x, wg), dim=-1)
        weights, experts = torch.topk(probs, 2, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return weights, experts


class MoeRouterTop2Ref(torch.nn.Module):
    """The reference in f64: logits and the softmax in f64, the two largest probabilities by a
    descending sort (ties cannot occur: the inputs are continuous, so two logits of a token are
    never equal), weights = p / (p1 + p2), rounded once to f32; indices as i64."""

    def forward(self, x, wg):
        logits = x.double() @ wg.double().t()
        e = torch.exp(logits - logits.max(dim=-1, keepdim=True).values)
        probs = e / e.sum(dim=-1, keepdim=True)
        sorted_p, order = torch.sort(probs, dim=-1, descending=True)
        top = sorted_p[:, :2]
        return (top / top.sum(dim=-1, keepdim=True)).to(x.dtype), order[:, :2].contiguous()
