// SPDX-License-Identifier: MIT
#include "core/agent/NpuKernelBenchScripts.h"

#include <nlohmann/json.hpp>

#include "core/agent/KernelBenchScripts.h"

namespace kwb {

namespace {

// Shared by both scripts: the stand-in modules, loading the two files under their own names (so
// tracebacks name their lines), calling forward with a float32 retry where CPU torch lacks a
// float16/bfloat16 kernel.
constexpr std::string_view kCommon = R"KWBPY(
import sys
import traceback
import types


class _Unavailable(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise RuntimeError(self.__name__ + "." + name + " is the NPU binding of the candidate; the reference "
                           "(Model) cannot use it")


def _install_stand_ins():
    npu = types.ModuleType("torch_npu")
    contrib = types.ModuleType("torch_npu.contrib")
    transfer = types.ModuleType("torch_npu.contrib.transfer_to_npu")
    contrib.transfer_to_npu = transfer
    npu.contrib = contrib
    npu.npu = _Unavailable("torch_npu.npu")
    sys.modules.update({"torch_npu": npu, "torch_npu.contrib": contrib,
                        "torch_npu.contrib.transfer_to_npu": transfer,
                        "kernel_gen_ops": _Unavailable("kernel_gen_ops")})


def _load(source, file_name):
    ns = {"__name__": "kwb_" + file_name.replace("/", "_").replace(".", "_"), "__file__": file_name}
    exec(compile(source, file_name, "exec"), ns)
    return ns


def _user_line(tb):
    line, file = 0, ""
    for frame in traceback.extract_tb(tb):
        if frame.filename in (MODULE_FILE, PREPARE_FILE):
            line, file = frame.lineno or 0, frame.filename
    return file, line


def _describe(e):
    return type(e).__name__ + ": " + str(e)


def _typed_rows(rows):
    """The rows as the suite's pandas.read_csv gives them to get_inputs(): a column whose cells are all
    integers holds ints, all numbers floats, all True/False bools; anything else stays text."""
    columns = {}
    for row in rows:
        for k, v in row.items():
            columns.setdefault(k, []).append(v)

    def kind(values):
        for name, conv in (("int", int), ("float", float)):
            try:
                [conv(v) for v in values]
                return conv
            except ValueError:
                pass
        if all(v in ("True", "False") for v in values):
            return lambda v: v == "True"
        return str

    convs = {k: kind(vs) for k, vs in columns.items()}
    return [{k: convs[k](v) for k, v in row.items()} for row in rows]


def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _forward(torch, model, args):
    """Runs forward; where CPU torch has no float16/bfloat16 kernel, again with those tensors in float32
    (outputs back in their dtype). Returns (outputs, upcast)."""
    with torch.no_grad():
        try:
            return _as_list(model(*args)), False
        except RuntimeError as e:
            if "not implemented for 'Half'" not in str(e) and "not implemented for 'BFloat16'" not in str(e):
                raise
            low = [a.dtype for a in args if isinstance(a, torch.Tensor) and a.dtype in (torch.float16, torch.bfloat16)]
            wide = [a.float() if isinstance(a, torch.Tensor) and a.dtype in (torch.float16, torch.bfloat16) else a
                    for a in args]
            outs = _as_list(model(*wide))
            back = low[0] if low else torch.float32
            return [o.to(back) if isinstance(o, torch.Tensor) and o.dtype == torch.float32 else o for o in outs], True
)KWBPY";

}  // namespace

std::string_view npuKernelBenchDescribeScript() {
  static const std::string kScript = std::string(kCommon) + R"KWBPY(
import json
import inspect


def finish(doc):
    with open(OUTPUT_FILE, "w") as f:
        json.dump(doc, f)
    sys.exit(0)


def fail(kind, message, file="", line=0):
    finish({"ok": False, "kind": kind, "error": message, "file": file, "line": line})


try:
    import torch
except Exception as e:  # noqa: BLE001
    fail("torch", "python3-torch cannot be imported (" + _describe(e) + ")")
torch.set_num_threads(1)
_install_stand_ins()

for source, name in ((PREPARE_SOURCE, PREPARE_FILE), (MODULE_SOURCE, MODULE_FILE)):
    try:
        compile(source, name, "exec")
    except SyntaxError as e:
        fail("syntax", "not valid Python: " + str(e.msg), name, e.lineno or 0)
try:
    prep = _load(PREPARE_SOURCE, PREPARE_FILE)
    mod = _load(MODULE_SOURCE, MODULE_FILE)
except Exception as e:  # noqa: BLE001
    f, l = _user_line(e.__traceback__)
    fail("load", "loading failed: " + _describe(e), f, l)
if "get_inputs" not in prep:
    fail("layout", "defines no get_inputs(param)", PREPARE_FILE)
if "Model" not in mod or not (isinstance(mod["Model"], type) and issubclass(mod["Model"], torch.nn.Module)):
    fail("layout", "defines no class Model(nn.Module)", MODULE_FILE)
Model = mod["Model"]
get_init_inputs = prep.get("get_init_inputs", lambda param, device=None: [])
params = [p for p in inspect.signature(Model.forward).parameters.values()][1:]
names = [p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]

DTYPES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16",
          torch.float64: "float64", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
          torch.int64: "int64", torch.uint8: "uint8", torch.bool: "bool"}


def tensor_doc(t, name):
    doc = {"kind": "tensor", "name": name, "dtype": DTYPES.get(t.dtype, str(t.dtype).replace("torch.", "")),
           "shape": list(t.shape)}
    if t.numel() > 0 and (t.is_floating_point() or t.dtype in (torch.int8, torch.int16, torch.int32,
                                                                torch.int64, torch.uint8)):
        v = t.double()
        v = v[torch.isfinite(v)]
        if v.numel() > 0:
            doc["min"] = float(v.min())
            doc["max"] = float(v.max())
    return doc


rows = []
for row, param in zip(ROWS, _typed_rows(ROWS)):
    entry = {"case_id": row.get("case_id", ""), "ok": False}
    try:
        torch.manual_seed(SEED)
        init = _as_list(get_init_inputs(param))
        torch.manual_seed(SEED)
        args = _as_list(prep["get_inputs"](param))
        torch.manual_seed(SEED)
        model = Model(*init)
        outs, upcast = _forward(torch, model, args)
        docs = []
        for k, a in enumerate(args):
            name = names[k] if k < len(names) else "x%d" % k
            docs.append(tensor_doc(a, name) if isinstance(a, torch.Tensor)
                        else {"kind": "value", "name": name, "repr": repr(a)[:200]})
        out_docs = []
        for k, o in enumerate(outs):
            if not isinstance(o, torch.Tensor):
                raise TypeError("forward() returned a %s, not a tensor, as output %d" % (type(o).__name__, k))
            out_docs.append(tensor_doc(o, "out%d" % k))
        entry.update({"ok": True, "args": docs, "outputs": out_docs, "upcast": upcast,
                      "init": [repr(v)[:200] for v in init]})
    except Exception as e:  # noqa: BLE001
        f, l = _user_line(e.__traceback__)
        entry.update({"error": _describe(e)[:2000], "file": f, "line": l})
    rows.append(entry)

finish({"ok": True, "forward_line": Model.forward.__code__.co_firstlineno, "rows": rows})
)KWBPY";
  return kScript;
}

std::string_view npuKernelBenchReferenceScript() {
  static const std::string kScript = std::string(kCommon) + R"KWBPY(
import torch

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
          "float64": torch.float64, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
          "int64": torch.int64, "uint8": torch.uint8, "bool": torch.bool}


def fail(message):
    sys.stderr.write("reference: " + message + "\n")
    sys.exit(1)


def read_manifest(path):
    case, inputs, outputs = "", [], []
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words or words[0] == "attr":
                continue
            if words[0] == "case":
                case = " ".join(words[1:])
                continue
            if words[0] not in ("input", "output"):
                fail("unknown manifest line: " + line.strip())
            name, dtype, rank = words[1], words[2], int(words[3])
            shape = [int(d) for d in words[4:4 + rank]]
            file = " ".join(words[4 + rank:])
            (inputs if words[0] == "input" else outputs).append((name, dtype, shape, file))
    return case, inputs, outputs


def main():
    torch.set_num_threads(1)
    _install_stand_ins()
    case, inputs, outputs = read_manifest(sys.argv[1])
    if case not in CASES:
        fail("case %s is not one of the imported test_cases.csv rows" % case)
    param = _typed_rows(ROWS)[[r.get("case_id") for r in ROWS].index(CASES[case]["case_id"])]
    prep = _load(PREPARE_SOURCE, PREPARE_FILE)
    mod = _load(MODULE_SOURCE, MODULE_FILE)
    get_init_inputs = prep.get("get_init_inputs", lambda param, device=None: [])
    torch.manual_seed(SEED)
    init = _as_list(get_init_inputs(param))
    torch.manual_seed(SEED)
    template = _as_list(prep["get_inputs"](param))
    ours = []
    for name, dtype, shape, file in inputs:
        if dtype not in DTYPES:
            fail("input %s has dtype %s, which the torch reference does not read" % (name, dtype))
        with open(file, "rb") as f:
            raw = bytearray(f.read())
        ours.append(torch.frombuffer(raw, dtype=DTYPES[dtype]).reshape(shape) if raw else
                    torch.zeros(shape, dtype=DTYPES[dtype]))
    args, k = [], 0
    for a in template:
        if isinstance(a, torch.Tensor):
            if k >= len(ours):
                fail("get_inputs() made more tensors than the task has inputs")
            # A 0-dim tensor of the suite is a [1] tensor of the task (docs/task-format.md).
            args.append(ours[k].to(a.dtype).reshape(a.shape))
            k += 1
        else:
            args.append(a)
    if k != len(ours):
        fail("get_inputs() made %d tensors, the task has %d inputs" % (k, len(ours)))
    torch.manual_seed(SEED)
    model = mod["Model"](*init)
    outs, _ = _forward(torch, model, args)
    if len(outs) != len(outputs):
        fail("forward() returned %d tensors, the task has %d outputs" % (len(outs), len(outputs)))
    for o, (name, dtype, shape, file) in zip(outs, outputs):
        if list(o.shape) != shape and not (o.dim() == 0 and shape == [1]):
            fail("output %s has shape %s, the case says %s" % (name, list(o.shape), shape))
        with open(file, "wb") as f:
            f.write(o.detach().to(torch.float64).contiguous().numpy().tobytes())


main()
)KWBPY";
  return kScript;
}

std::string npuKernelBenchProgram(const std::string& moduleSource, const std::string& prepareSource,
                                  const std::string& rowsJson, std::string_view script,
                                  const std::string& extraAssignments) {
  // A JSON string (or array of objects of strings) is also a valid Python literal.
  std::string program = "# Generated by kwb (docs/task-format.md, \"Importing an NPUKernelBench task\").\n";
  program += "MODULE_FILE = \"validation/module.py\"\n";
  program += "MODULE_SOURCE = " + nlohmann::json(moduleSource).dump() + "\n";
  program += "PREPARE_FILE = \"validation/prepare_inputs.py\"\n";
  program += "PREPARE_SOURCE = " + nlohmann::json(prepareSource).dump() + "\n";
  program += "ROWS = " + rowsJson + "\n";
  program += "SEED = " + std::to_string(kKernelBenchSeed) + "\n";
  program += extraAssignments;
  program += script;
  return program;
}

}  // namespace kwb
