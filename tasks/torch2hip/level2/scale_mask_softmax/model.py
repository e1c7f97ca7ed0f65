# The scale_mask_softmax task: y = softmax(x * scale + mask, dim=-1), an additive f32 mask [M, N]
# broadcast over a batch of score matrices [B, M, N] (the attention-probability step of a
# transformer, B = batch x heads). The mask is an input drawn by kta. Runs on torch 1.13 and
# later, on CPU and GPU.
import torch


class ScaleMaskSoftmax(torch.nn.Module):
    """The baseline: what a PyTorch model runs (scale, add the broadcast mask, softmax), three
    elementwise/row kernels with the scaled and masked scores written out in between."""

    def __init__(self, scale):
        super().__init__()
        self.scale = float(scale)

    def forward(self, x, mask):
        return torch.softmax(x * self.scale + mask, dim=-1)


class ScaleMaskSoftmaxRef(torch.nn.Module):
    """The reference, written out from the definition in f64: z = x * scale + mask,
    y = exp(z - max_j z) / sum_j exp(z - max_j z), rounded once to f32."""

    def __init__(self, scale):
        super().__init__()
        self.scale = float(scale)

    def forward(self, x, mask):
        z = x.double() * self.scale + mask.double().unsqueeze(0)
        e = torch.exp(z - z.max(dim=-1, keepdim=True).values)
        return (e / e.sum(dim=-1, keepdim=True)).to(x.dtype)
