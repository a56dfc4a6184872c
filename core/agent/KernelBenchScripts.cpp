// SPDX-License-Identifier: MIT
#include "core/agent/KernelBenchScripts.h"

#include <nlohmann/json.hpp>
#include <string>

namespace kwb {

// The scripts are embedded so that an installed kwb needs nothing beside itself; both run under
// Debian's /usr/bin/python3 with python3-torch, in the sandbox (docs/sandbox.md).
std::string_view kernelBenchDescribeScript() {
  static constexpr std::string_view kScript = R"KWBPY(
import json
import sys
import traceback

CUBE_OPS = {"matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "addmv", "mv", "dot", "einsum",
            "linear", "bilinear", "tensordot", "__matmul__", "__rmatmul__", "conv1d", "conv2d", "conv3d",
            "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "convolution",
            "scaled_dot_product_attention"}


def finish(doc):
    with open(OUTPUT_FILE, "w") as f:
        json.dump(doc, f)
    sys.exit(0)


def fail(kind, message, line=0):
    finish({"ok": False, "kind": kind, "error": message, "line": line})


def problem_line(tb):
    line = 0
    for frame in traceback.extract_tb(tb):
        if frame.filename == PROBLEM_FILE:
            line = frame.lineno or 0
    return line


def caller_line():
    f = sys._getframe(1)
    while f is not None:
        if f.f_code.co_filename == PROBLEM_FILE:
            return f.f_lineno
        f = f.f_back
    return 0


def describe_exception(e):
    return type(e).__name__ + ": " + str(e)


try:
    import torch
except Exception as e:  # noqa: BLE001
    fail("torch", "python3-torch cannot be imported (" + describe_exception(e) + ")")

torch.set_num_threads(1)
DTYPES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16"}

try:
    code = compile(PROBLEM_SOURCE, PROBLEM_FILE, "exec")
except SyntaxError as e:
    fail("syntax", "not valid Python: " + str(e.msg), e.lineno or 0)

ns = {"__name__": "kwb_problem", "__file__": PROBLEM_FILE}
try:
    exec(code, ns)
except Exception as e:  # noqa: BLE001
    fail("load", "loading the module failed: " + describe_exception(e), problem_line(e.__traceback__))

for name in ("Model", "get_inputs", "get_init_inputs"):
    if name not in ns:
        fail("not-kernelbench", "no module-level " + name + " (a KernelBench problem defines class Model("
             "nn.Module), get_inputs() and get_init_inputs())")
Model = ns["Model"]
if not (isinstance(Model, type) and issubclass(Model, torch.nn.Module)):
    fail("not-kernelbench", "Model is not a subclass of torch.nn.Module")

try:
    torch.manual_seed(SEED)
    init_inputs = list(ns["get_init_inputs"]())
except Exception as e:  # noqa: BLE001
    fail("get_init_inputs", "get_init_inputs() failed: " + describe_exception(e), problem_line(e.__traceback__))
try:
    torch.manual_seed(SEED)
    inputs = list(ns["get_inputs"]())
except Exception as e:  # noqa: BLE001
    fail("get_inputs", "get_inputs() failed: " + describe_exception(e), problem_line(e.__traceback__))

import inspect

params = [p for p in inspect.signature(Model.forward).parameters.values()][1:]
if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
    names = ["x%d" % k for k in range(len(inputs))]
else:
    names = [p.name for p in params][: len(inputs)]
    if len(names) != len(inputs):
        fail("signature", "get_inputs() returns %d values but forward() takes %d" % (len(inputs), len(params)),
             Model.forward.__code__.co_firstlineno)


def tensor_doc(name, t, what):
    if not isinstance(t, torch.Tensor):
        fail("input-type", "%s %s is a %s, not a tensor" % (what, name, type(t).__name__))
    return {"name": name, "dtype": DTYPES.get(t.dtype, str(t.dtype).replace("torch.", "")),
            "shape": list(t.shape)}


input_docs = [tensor_doc(n, t, "input") for n, t in zip(names, inputs)]

try:
    torch.manual_seed(SEED)
    model = Model(*init_inputs)
except Exception as e:  # noqa: BLE001
    fail("init", "Model(*get_init_inputs()) failed: " + describe_exception(e), problem_line(e.__traceback__))

ops = []


class Recorder(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", str(func))
        entry = {"name": name, "line": caller_line()}
        if entry not in ops and len(ops) < 200:
            ops.append(entry)
        return func(*args, **(kwargs or {}))


def as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


try:
    with torch.no_grad(), Recorder():
        outputs = as_list(model(*inputs))
except Exception as e:  # noqa: BLE001
    fail("forward", "forward() failed on get_inputs(): " + describe_exception(e), problem_line(e.__traceback__))

cube = [o for o in ops if o["name"] in CUBE_OPS]
output_docs = [tensor_doc("out" if len(outputs) == 1 else "out%d" % k, t, "output") for k, t in enumerate(outputs)]

extra = []
for case in REQUEST.get("cases", []):
    shapes = case["shapes"]
    try:
        xs = []
        for doc, t in zip(input_docs, inputs):
            shape = shapes.get(doc["name"])
            if shape is None:
                # An input not named follows a named one whose get_inputs() shape it shared.
                shape = doc["shape"]
                for other in input_docs:
                    if other["name"] in shapes and other["shape"] == doc["shape"]:
                        shape = shapes[other["name"]]
                        break
            xs.append(torch.randn(*shape).to(t.dtype))
        with torch.no_grad():
            outs = as_list(model(*xs))
        extra.append({"name": case["name"], "ok": True,
                      "inputs": [list(x.shape) for x in xs], "outputs": [list(o.shape) for o in outs]})
    except Exception as e:  # noqa: BLE001
        extra.append({"name": case["name"], "ok": False, "error": describe_exception(e)})

finish({"ok": True, "inputs": input_docs, "outputs": output_docs, "ops": ops, "cube_ops": cube,
        "init_inputs": [repr(v)[:200] for v in init_inputs], "extra_cases": extra,
        "forward_line": Model.forward.__code__.co_firstlineno})
)KWBPY";
  return kScript;
}

std::string_view kernelBenchReferenceScript() {
  static constexpr std::string_view kScript = R"KWBPY(
import sys

import torch

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def fail(message):
    sys.stderr.write("reference: " + message + "\n")
    sys.exit(1)


def read_manifest(path):
    inputs, outputs = [], []
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words or words[0] in ("case", "attr"):
                continue
            if words[0] not in ("input", "output"):
                fail("unknown manifest line: " + line.strip())
            name, dtype, rank = words[1], words[2], int(words[3])
            shape = [int(d) for d in words[4:4 + rank]]
            file = " ".join(words[4 + rank:])
            (inputs if words[0] == "input" else outputs).append((name, dtype, shape, file))
    return inputs, outputs


def main():
    torch.set_num_threads(1)
    inputs, outputs = read_manifest(sys.argv[1])
    ns = {"__name__": "kwb_problem", "__file__": PROBLEM_FILE}
    exec(compile(PROBLEM_SOURCE, PROBLEM_FILE, "exec"), ns)
    xs = []
    for name, dtype, shape, file in inputs:
        if dtype not in DTYPES:
            fail("input %s has dtype %s, which the torch reference does not read" % (name, dtype))
        with open(file, "rb") as f:
            raw = bytearray(f.read())
        xs.append(torch.frombuffer(raw, dtype=DTYPES[dtype]).reshape(shape))
    torch.manual_seed(SEED)
    init_inputs = list(ns["get_init_inputs"]())
    torch.manual_seed(SEED)
    model = ns["Model"](*init_inputs)
    with torch.no_grad():
        out = model(*xs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if len(outs) != len(outputs):
        fail("forward() returned %d tensors, the task has %d outputs" % (len(outs), len(outputs)))
    for o, (name, dtype, shape, file) in zip(outs, outputs):
        if list(o.shape) != shape:
            fail("output %s has shape %s, the case says %s" % (name, list(o.shape), shape))
        with open(file, "wb") as f:
            f.write(o.detach().to(torch.float64).contiguous().numpy().tobytes())


main()
)KWBPY";
  return kScript;
}

std::string kernelBenchProgram(const std::string& problemFile, const std::string& problemSource,
                               std::string_view script, const std::string& extraAssignments) {
  // A JSON string is also a valid Python string literal, so the problem's text needs no other quoting;
  // it is exec'd under its own file name so tracebacks name the problem's lines.
  std::string program = "# Generated by kwb (docs/task-format.md, \"Importing a KernelBench problem\").\n";
  program += "PROBLEM_FILE = " + nlohmann::json(problemFile).dump() + "\n";
  program += "PROBLEM_SOURCE = " + nlohmann::json(problemSource).dump() + "\n";
  program += "SEED = " + std::to_string(kKernelBenchSeed) + "\n";
  program += extraAssignments;
  program += script;
  return program;
}

}  // namespace kwb
