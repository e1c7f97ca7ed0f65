# The gru_cell task: one step of a GRU cell with torch.nn.GRUCell's semantics,
#   r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
#   z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
#   n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
#   h' = (1 - z) * n + z * h
# with w_ih = [W_ir; W_iz; W_in] and w_hh = [W_hr; W_hz; W_hn] stacked by rows, in f32. Weights
# are task inputs (drawn by kta), not parameters created here. Runs on torch 1.13 and later.
import torch
import torch.nn.functional as F


class GruCell(torch.nn.Module):
    """The baseline: the GRU cell as the documentation writes it, two F.linear calls (the input
    and the hidden projections of all three gates) and the gate arithmetic, in f32."""

    def forward(self, x, h, w_ih, w_hh, b_ih, b_hh):
        gi = F.linear(x, w_ih, b_ih)
        gh = F.linear(h, w_hh, b_hh)
        i_r, i_z, i_n = gi.chunk(3, dim=1)
        h_r, h_z, h_n = gh.chunk(3, dim=1)
        r = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        return (1 - z) * n + z * h


class GruCellRef(torch.nn.Module):
    """The reference, written out gate by gate in f64 (each gate's weight block sliced by rows,
    the logistic function as 1 / (1 + exp(-a))), rounded once to f32."""

    def forward(self, x, h, w_ih, w_hh, b_ih, b_hh):
        hid = h.shape[1]
        xd, hd = x.double(), h.double()
        wi, wh = w_ih.double(), w_hh.double()
        bi, bh = b_ih.double(), b_hh.double()

        def gate(g, hidden):
            rows = slice(g * hid, (g + 1) * hid)
            a = torch.einsum("bk,jk->bj", xd, wi[rows]) + bi[rows]
            c = torch.einsum("bk,jk->bj", hidden, wh[rows]) + bh[rows]
            return a, c

        a_r, c_r = gate(0, hd)
        a_z, c_z = gate(1, hd)
        a_n, c_n = gate(2, hd)
        r = 1.0 / (1.0 + torch.exp(-(a_r + c_r)))
        z = 1.0 / (1.0 + torch.exp(-(a_z + c_z)))
        n = torch.tanh(a_n + r * c_n)
        return ((1.0 - z) * n + z * hd).to(x.dtype)
