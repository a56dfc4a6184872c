#!/bin/bash
# SPDX-License-Identifier: MIT
# Host code of a kernel-launch program asks platform_ascendc::PlatformAscendCManager for the SoC (issue 14,
# the public Matmul API samples' host tiling): without a name it is the SoC `kwb sim build --soc` chose,
# with one it is that SoC, the first call's SoC holds, and an unknown name is nullptr with a message.
set -u
KWB="$1"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
cat > "$WORK/main.cpp" <<'CPP'
#include <cstdio>
#include "tiling/platform/platform_ascendc.h"
int main(int argc, char** argv) {
  using platform_ascendc::PlatformAscendCManager;
  auto* p = argc > 1 ? PlatformAscendCManager::GetInstance(argv[1]) : PlatformAscendCManager::GetInstance();
  if (!p) { std::printf("null\n"); return 3; }
  uint64_t ub = 0, l1 = 0, l0a = 0, l0c = 0;
  p->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  p->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
  p->GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
  p->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
  std::printf("aic %u aiv %u ub %llu l1 %llu l0a %llu l0c %llu\n", p->GetCoreNumAic(), p->GetCoreNumAiv(),
              (unsigned long long)ub, (unsigned long long)l1, (unsigned long long)l0a, (unsigned long long)l0c);
  std::printf("same %d\n", PlatformAscendCManager::GetInstance("Ascend910B1") == p);
  return 0;
}
CPP
"$KWB" sim build --soc Ascend910B3 -o "$WORK/app" "$WORK/main.cpp" > "$WORK/build.txt" 2>&1 || { cat "$WORK/build.txt"; fail "build"; }
out=$("$WORK/app") || fail "default SoC: exit $?"
grep -qx "aic 20 aiv 40 ub 196608 l1 524288 l0a 65536 l0c 131072" <<<"$out" || fail "default SoC (the build's, 910B3): $out"
grep -qx "same 1" <<<"$out" || fail "the first call's SoC must hold: $out"
out=$("$WORK/app" Ascend310P3) || fail "named SoC: exit $?"
grep -qx "aic 8 aiv 7 ub 262144 l1 1048576 l0a 65536 l0c 262144" <<<"$out" || fail "named SoC (310P3): $out"
set +e
out=$("$WORK/app" Ascend999 2>"$WORK/err.txt"); rc=$?
set -e
[ "$rc" -eq 3 ] && [ "$out" = "null" ] || fail "unknown SoC: rc $rc, $out"
grep -q "does not know SoC 'Ascend999'" "$WORK/err.txt" || fail "unknown SoC message: $(cat "$WORK/err.txt")"
echo PASS
