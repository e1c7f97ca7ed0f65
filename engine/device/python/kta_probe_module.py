"""kta's module probe: what `kta new torch2hip NAME --from model.py` learns of a PyTorch module.

Started by the engine (engine/scaffold/probe_module.cpp) as
`python3 kta_probe_module.py MODEL_FILE OUT_JSON`. It imports MODEL_FILE, which follows the
common benchmark convention (a `Model(nn.Module)` class, `get_inputs()` and, optionally,
`get_init_inputs()`), builds `Model(*get_init_inputs())` under `torch.manual_seed(0)` as the
python runner does, runs forward once on the CPU under `torch.no_grad()`, and writes to OUT_JSON
either

  {"ok": true, "torch": "...", "class": "Model", "init_params": [...], "forward_params": [...],
   "init_args": [{"kind": "int"|"float"|"bool", "value": ...}],
   "inputs": [{"dtype": "f32", "shape": [...], "min": .., "max": .., "mean": .., "std": ..}],
   "outputs": [{"dtype": "f32", "shape": [...]}],
   "parameters": [{"name": "linear.weight", "shape": [...]}]}

or {"ok": false, "error": "<named reason>", "traceback": "..."}. The result goes to a file, not
stdout, so that what the module prints cannot corrupt it. Exit status 0 either way; anything
else means the probe itself broke.
"""

import importlib.util
import inspect
import json
import os
import sys
import textwrap
import traceback

# torch dtype name -> the task dtype name (docs/language.md).
DTYPES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
          "int8": "i8", "int32": "i32", "int64": "i64", "uint8": "u8", "bool": "bool",
          "uint32": "u32", "uint64": "u64"}


class Failure(Exception):
    """A named failure: the result's `error`, with the user code's traceback when there is one."""

    def __init__(self, error, tb=""):
        super().__init__(error)
        self.error = error
        self.tb = tb


def user_traceback(exc):
    """The traceback of `exc` without this script's frames and importlib's."""
    here = os.path.abspath(__file__)
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if os.path.abspath(f.filename) != here and not f.filename.startswith("<frozen")]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines)


def failing(what, exc):
    """A Failure naming `what` failed and with which exception."""
    first = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return Failure("%s: %s" % (what, first), user_traceback(exc))


def where(fn):
    """'model.py:12' for a function, for messages about what it returned."""
    try:
        return "%s:%d" % (os.path.basename(inspect.getsourcefile(fn)),
                          inspect.getsourcelines(fn)[1])
    except (TypeError, OSError):
        return "?"


def source_of(fn):
    """A traceback-like pointer to a function that returned something kta cannot use."""
    try:
        lines, first = inspect.getsourcelines(fn)
        body = textwrap.indent(textwrap.dedent("".join(lines)), "    ")
        return '  File "%s", line %d, in %s\n%s' % (inspect.getsourcefile(fn), first, fn.__name__,
                                                    body)
    except (TypeError, OSError):
        return ""


def a_type(value):
    """'an int', 'a float': the type of `value` with its article."""
    name = type(value).__name__
    return ("an " if name[0] in "aeiou" else "a ") + name


def type_list(values):
    return ", ".join(type(v).__name__ for v in values)


def load(path):
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)  # sibling imports, as the python runner allows them
    spec = importlib.util.spec_from_file_location("kta_probed_module", path)
    if spec is None or spec.loader is None:
        raise Failure("import error: cannot load '%s'" % path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except BaseException as e:  # SyntaxError, ImportError, anything at import time
        raise failing("import error", e)
    return module


def convention(module, path):
    """Model, get_inputs and get_init_inputs (or None) of the module; a Failure when missing."""
    name = os.path.basename(path)
    missing = [shown for n, shown in (("Model", "class Model"), ("get_inputs", "get_inputs()"))
               if not hasattr(module, n)]
    if missing:
        defined = [n for n in dir(module) if not n.startswith("_")]
        raise Failure("%s defines no %s (it defines: %s): `kta new --from` reads the common "
                      "benchmark convention (a Model(nn.Module) class, get_inputs() and "
                      "get_init_inputs())" %
                      (name, " and no ".join(missing), ", ".join(defined[:20]) or "nothing"))
    return module.Model, module.get_inputs, getattr(module, "get_init_inputs", None)


def call(what, fn, *args):
    try:
        return fn(*args)
    except BaseException as e:
        raise failing("%s raised" % what, e)


def as_list(what, fn, value):
    if isinstance(value, (list, tuple)):
        return list(value)
    raise Failure("%s (%s) returned %s, not a list" % (what, where(fn), a_type(value)),
                  source_of(fn))


def init_arg(i, v):
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, int):
        return {"kind": "int", "value": v}
    if isinstance(v, float):
        return {"kind": "float", "value": v}
    raise Failure("get_init_inputs() item %d is %s (%r): kta passes init args as numbers "
                  "(int, float, bool)" % (i, a_type(v), v))


def dtype_name(torch, what, t):
    name = str(t.dtype).replace("torch.", "")
    if name not in DTYPES:
        raise Failure("%s has dtype %s, which kta has no dtype for" % (what, t.dtype))
    return DTYPES[name]


def input_record(torch, i, v):
    if not isinstance(v, torch.Tensor):
        raise Failure("get_inputs() item %d is %s (%r), not a tensor: kta calls forward with "
                      "tensors only; scalar inputs are not supported (pass it to Model through "
                      "get_init_inputs() instead)" % (i, a_type(v), v))
    rec = {"dtype": dtype_name(torch, "input %d" % i, v), "shape": list(v.shape)}
    if 0 in rec["shape"]:
        raise Failure("input %d has shape %s: a dimension of size 0" % (i, rec["shape"]))
    if v.numel() > 0 and v.dtype != torch.bool:
        d = v.detach().double()
        rec.update(min=d.min().item(), max=d.max().item(), mean=d.mean().item(),
                   std=d.std().item() if d.numel() > 1 else 0.0)
    return rec


def output_records(torch, forward, result):
    values = list(result) if isinstance(result, (list, tuple)) else [result]
    if not values or not all(isinstance(v, torch.Tensor) for v in values):
        shown = a_type(result)
        if isinstance(result, (list, tuple)):
            shown = "%s of %s" % (shown, type_list(values) or "nothing")
        raise Failure("forward (%s) returned %s, not a tensor or a tuple of tensors: kta "
                      "compares tensor outputs" % (where(forward), shown), source_of(forward))
    return [{"dtype": dtype_name(torch, "output %d" % i, v), "shape": list(v.shape)}
            for i, v in enumerate(values)]


def param_names(fn, skip_self):
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    if skip_self and params and params[0].name == "self":
        params = params[1:]
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in params if p.kind in plain]


def probe(path):
    module = load(path)
    model_class, get_inputs, get_init_inputs = convention(module, path)
    import torch
    torch.manual_seed(0)
    init = []
    if get_init_inputs is not None:
        init = as_list("get_init_inputs()", get_init_inputs,
                       call("get_init_inputs()", get_init_inputs))
    init_args = [init_arg(i, v) for i, v in enumerate(init)]
    torch.manual_seed(0)
    inputs = as_list("get_inputs()", get_inputs, call("get_inputs()", get_inputs))
    records = [input_record(torch, i, v) for i, v in enumerate(inputs)]
    torch.manual_seed(0)  # the python runner builds modules under seed 0
    model = call("Model(*get_init_inputs())", model_class, *init)
    if not isinstance(model, torch.nn.Module):
        raise Failure("Model(...) is %s, not a torch.nn.Module" % a_type(model))
    model.eval()
    with torch.no_grad():
        result = call("forward", model, *inputs)
    return {"ok": True, "torch": torch.__version__, "class": "Model",
            "init_params": param_names(model_class.__init__, True),
            "forward_params": param_names(model.forward, False),
            "init_args": init_args, "inputs": records,
            "outputs": output_records(torch, model.forward, result),
            "parameters": [{"name": n, "shape": list(p.shape)}
                           for n, p in list(model.named_parameters()) +
                           list(model.named_buffers())]}


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: kta_probe_module.py MODEL_FILE OUT_JSON\n")
        return 2
    try:
        result = probe(sys.argv[1])
    except Failure as f:
        result = {"ok": False, "error": f.error, "traceback": f.tb}
    with open(sys.argv[2], "w") as out:
        json.dump(result, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
