#!/bin/bash
# SPDX-License-Identifier: MIT
# The samples' own build files against an installed emulator (docs/emulator.md, "The samples' own build
# files"): `cmake --install` into a temp prefix, then
#  1. an asc-devkit-style .asc example (tests/emulator/asc/vector_add) configured with its own CMake
#     (find_package(ASC), LANGUAGES ASC CXX, -DCMAKE_ASC_RUN_MODE=cpu), built, run: it checks itself;
#  2. npu run mode is refused with a message saying why;
#  3. a kernel reading host memory (aclrtMallocHost) gets a gm-out-of-bounds error at its DataCopy line,
#     and at the line of a raw pointer read of it;
#     a static-tensor program (LocalMemAllocator) runs correct and clean;
#  4. a kernel-launch project (tests/emulator/kernel_launch/add_invocation) through `bash run.sh -r cpu
#     -v Ascend910B1` under the variables `kwb sim env` prints, its verify script saying "test pass";
#  4b. a kernel-launch project of the NPU branch's shape (tests/emulator/kernel_launch/npu_launch):
#     ascendc_library() from the CANN folder's ascendc.cmake, the generated aclrtlaunch_<kernel>.h,
#     ACLRT_LAUNCH_KERNEL and a <<<>>> launcher; it checks itself, and host memory handed to the
#     generated launch function is a gm-out-of-bounds error at the kernel's DataCopy line;
#  5. `kwb doctor` finds both.
set -u
KWB="$1"; SRC="$2"
BUILD=$(cd "$(dirname "$KWB")/../.." && pwd)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
fail() { echo "FAIL: $*"; exit 1; }
export XDG_CACHE_HOME="$WORK/cache"
unset KWB_DATA_DIR CMAKE_PREFIX_PATH ASCEND_HOME_PATH ASCEND_INSTALL_PATH ASCEND_TOOLKIT_HOME ASCEND_HOME_DIR

cmake --install "$BUILD" --prefix "$WORK/prefix" > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; fail "cmake --install"; }
P="$WORK/prefix"

# 1. The .asc example through its own CMake.
cp -r "$SRC/tests/emulator/asc/vector_add" "$WORK/vector_add"
cmake -S "$WORK/vector_add" -B "$WORK/vector_add/build" -DCMAKE_ASC_RUN_MODE=cpu -DCMAKE_PREFIX_PATH="$P" \
  > "$WORK/asc-configure.log" 2>&1 || { cat "$WORK/asc-configure.log"; fail "configure of the .asc example"; }
cmake --build "$WORK/vector_add/build" > "$WORK/asc-build.log" 2>&1 || { cat "$WORK/asc-build.log"; fail "build of the .asc example"; }
(cd "$WORK/vector_add/build" && ./demo) > "$WORK/asc-run.log" 2>&1 || { cat "$WORK/asc-run.log"; fail "the .asc example failed"; }
grep -q "\[Success\] vector_add matches" "$WORK/asc-run.log" || { cat "$WORK/asc-run.log"; fail "no success line"; }
grep -q "8 blocks run on the kwb emulator" "$WORK/asc-run.log" || { cat "$WORK/asc-run.log"; fail "the program does not say it ran on the emulator"; }
grep -q "ERROR" "$WORK/asc-run.log" && { cat "$WORK/asc-run.log"; fail "error diagnostics on a correct program"; }
# The link step leaves no files of its own next to the program (samples put programs in their source
# folder, where a later file(GLOB *.cpp) would pick them up).
ls "$WORK/vector_add/build" | grep -q "kwb_soc" && fail "kwb sim cc left its SoC parameter files next to the program"
# A rebuild after touching the source recompiles it (the dependency file names the .asc, not its copy).
touch "$WORK/vector_add/vector_add.asc"
cmake --build "$WORK/vector_add/build" 2>&1 | grep -q "vector_add.asc" || fail "touching the .asc did not rebuild it"

# 2. npu mode: refused, saying why.
cmake -S "$WORK/vector_add" -B "$WORK/npu" -DCMAKE_ASC_RUN_MODE=npu -DCMAKE_PREFIX_PATH="$P" > "$WORK/npu.log" 2>&1 \
  && fail "npu run mode was accepted"
grep -q "CPU mode only" "$WORK/npu.log" || { cat "$WORK/npu.log"; fail "npu refusal does not say why"; }

# 3. Host memory handed to a kernel.
"$P/bin/kwb" sim build -o "$WORK/host_memory" "$SRC/tests/emulator/asc/host_memory/host_memory.asc" \
  > "$WORK/hm-build.log" 2>&1 || { cat "$WORK/hm-build.log"; fail "kwb sim build of host_memory.asc"; }
(cd "$WORK" && KWB_SIM_REPORT="$WORK/hm.json" ./host_memory) > "$WORK/hm-run.log" 2>&1 && fail "host_memory ran clean"
python3 - "$WORK/hm.json" <<'PY' || { cat "$WORK/hm-run.log"; fail "host memory diagnostic"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "error", d["status"]
errs = [x for x in d["diagnostics"] if x["severity"] == "error"]
assert errs, d["diagnostics"]
e = errs[0]
assert e["category"] == "gm-out-of-bounds", e
assert e["file"].endswith("host_memory.asc") and e["line"] == 18, e
assert "host memory" in e["message"] and "kwb_sim" not in e["message"], e
PY

# A raw pointer read of host memory (before any emulated API call): the error is at the read, from the
# program's debug information (built with -g through `kwb sim cc`); with the device copy it runs clean.
"$P/bin/kwb" sim cc -g "$SRC/tests/emulator/asc/host_memory/host_raw.asc" -o "$WORK/host_raw" \
  > "$WORK/hr-build.log" 2>&1 || { cat "$WORK/hr-build.log"; fail "kwb sim cc of host_raw.asc"; }
(cd "$WORK" && KWB_SIM_REPORT="$WORK/hr.json" ./host_raw) > "$WORK/hr-run.log" 2>&1 && fail "host_raw ran clean"
python3 - "$WORK/hr.json" <<'PY' || { cat "$WORK/hr-run.log"; fail "raw host memory diagnostic"; }
import json, sys
d = json.load(open(sys.argv[1]))
errs = [x for x in d["diagnostics"] if x["severity"] == "error"]
assert len(errs) == 1, errs
e = errs[0]
assert e["category"] == "gm-out-of-bounds" and "host memory" in e["message"], e
assert e["file"].endswith("host_raw.asc") and e["line"] == 19, e
PY
(cd "$WORK" && KWB_SIM_REPORT="$WORK/hr-dev.json" ./host_raw device) > "$WORK/hr-dev.log" 2>&1 || { cat "$WORK/hr-dev.log"; fail "host_raw device failed"; }
grep -q "z\[0\] = 2.5" "$WORK/hr-dev.log" || { cat "$WORK/hr-dev.log"; fail "host_raw device result"; }

# 3b. Static tensor programming (LocalMemAllocator, block_idx, InitSocState) through `kwb sim build`:
# correct, and not one diagnostic.
"$P/bin/kwb" sim build -o "$WORK/static_add" "$SRC/tests/emulator/asc/static_tensor/static_add.asc" \
  > "$WORK/st-build.log" 2>&1 || { cat "$WORK/st-build.log"; fail "kwb sim build of static_add.asc"; }
(cd "$WORK" && KWB_SIM_REPORT="$WORK/st.json" ./static_add) > "$WORK/st-run.log" 2>&1 || { cat "$WORK/st-run.log"; fail "static_add failed"; }
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['status']=='ok' and not d['diagnostics'], d" "$WORK/st.json" \
  || fail "static_add: diagnostics on a correct program"

# 4. The kernel-launch project through run.sh under `kwb sim env`.
eval "$("$P/bin/kwb" sim env)" || fail "kwb sim env"
[ -f "$ASCEND_HOME_PATH/tools/tikicpulib/lib/cmake/tikicpulib/tikicpulib-config.cmake" ] || fail "ASCEND_HOME_PATH=$ASCEND_HOME_PATH has no tikicpulib"
unset CMAKE_PREFIX_PATH  # as in a shell that only sourced the CANN variables
# The project's build files and scripts are its own; its kernel and host sources are the public-style
# add_custom's (tests/emulator/public_style/add_custom), kept in one place.
cp -r "$SRC/tests/emulator/kernel_launch/add_invocation" "$WORK/kl"
cp "$SRC"/tests/emulator/public_style/add_custom/{add_custom.cpp,main.cpp,data_utils.h} "$WORK/kl/"
(cd "$WORK/kl" && bash run.sh -r cpu -v Ascend910B1) > "$WORK/kl.log" 2>&1 || { cat "$WORK/kl.log"; fail "run.sh -r cpu"; }
grep -q "test pass" "$WORK/kl.log" || { cat "$WORK/kl.log"; fail "verify did not pass"; }
grep -q "blocks run on the kwb emulator" "$WORK/kl.log" || { cat "$WORK/kl.log"; fail "the kernel-launch program does not say it ran on the emulator"; }

# 4b. The NPU branch's form: ascendc_library() and the generated launch headers.
cp -r "$SRC/tests/emulator/kernel_launch/npu_launch" "$WORK/nl"
(cd "$WORK/nl" && bash run.sh -r npu -v Ascend910B1) > "$WORK/nl.log" 2>&1 || { cat "$WORK/nl.log"; fail "npu_launch run.sh"; }
grep -q "\[Success\] npu_launch matches" "$WORK/nl.log" || { cat "$WORK/nl.log"; fail "npu_launch did not match"; }
grep -q "scale_add: 4 blocks run on the kwb emulator" "$WORK/nl.log" || { cat "$WORK/nl.log"; fail "npu_launch does not say it ran on the emulator"; }
grep -q "ERROR" "$WORK/nl.log" && { cat "$WORK/nl.log"; fail "error diagnostics on the correct npu_launch"; }
[ -f "$WORK/nl/out/include/ascendc_kernels_npu/aclrtlaunch_scale_add.h" ] || fail "the launch header was not installed"
(cd "$WORK/nl" && LD_LIBRARY_PATH="$WORK/nl/out/lib" KWB_SIM_REPORT="$WORK/nl.json" ./out/bin/npu_launch --host-input) \
  > "$WORK/nl-host.log" 2>&1 && fail "npu_launch --host-input ran clean"
python3 - "$WORK/nl.json" <<'PY' || { cat "$WORK/nl-host.log"; fail "npu_launch host memory diagnostic"; }
import json, sys
d = json.load(open(sys.argv[1]))
errs = [x for x in d["diagnostics"] if x["severity"] == "error"]
assert errs and errs[0]["category"] == "gm-out-of-bounds", d["diagnostics"]
assert errs[0]["file"].endswith("scale_add.cpp") and errs[0]["line"] == 23, errs[0]
assert "host memory" in errs[0]["message"], errs[0]
PY
(cd "$WORK/nl" && LD_LIBRARY_PATH="$WORK/nl/out/lib" KWB_SIM_REPORT="$WORK/nl-raw.json" ./out/bin/npu_launch --host-raw) \
  > "$WORK/nl-raw.log" 2>&1 && fail "npu_launch --host-raw ran clean"
python3 - "$WORK/nl-raw.json" <<'PY' || { cat "$WORK/nl-raw.log"; fail "npu_launch raw host read diagnostic"; }
import json, sys
d = json.load(open(sys.argv[1]))
errs = [x for x in d["diagnostics"] if x["severity"] == "error"]
assert len(errs) == 1 and errs[0]["category"] == "gm-out-of-bounds", errs
# The kernel library is a shared object built -g (Debug): the read's own line.
assert errs[0]["file"].endswith("first_value.cpp") and errs[0]["line"] == 10, errs[0]
PY

# 5. doctor finds both.
"$P/bin/kwb" doctor --json > "$WORK/doctor.json" || fail "doctor exited $?"
python3 - "$WORK/doctor.json" "$P" <<'PY' || fail "doctor: $(cat "$WORK/doctor.json")"
import json, sys
d = json.load(open(sys.argv[1])); prefix = sys.argv[2]
by = {c["name"]: c for c in d["checks"]}
for name in ("ASC CMake package", "CANN-layout folder"):
    assert by[name]["status"] == "ok", by[name]
    assert by[name]["path"].startswith(prefix), by[name]
PY
echo ok
