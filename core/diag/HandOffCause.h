// SPDX-License-Identifier: MIT
#pragma once
// Moves a queue hand-off finding (a missing EnQue or FreeTensor, found by the emulator at the tensor's
// last use) into the function that owns the tensor, when the last use sits in a helper it calls: the
// hand-off belongs after that call, in the function that took the tensor from its queue (docs/emulator.md,
// "Cause lines"). E.g. a matmul that allocates its L0C tile in Process, accumulates into it through
// Compute(c1, ...) and forgets `qC.EnQue(c1)`: the runtime sees the Mmad inside Compute last; the cause
// is after the call of Compute in Process. Nothing moves when the function that took the tensor calls the
// helper more than once, or not at all (the chain is longer or ambiguous).

#include <string>
#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb {

// `d` is a queue-misuse finding in the candidate whose text is `lines`, with the related location of the
// AllocTensor/DeQue that took the tensor. Returns true when it was moved (line and excerpt set to the
// call, the former line kept as a related location "the last use of the tensor, inside <helper>").
bool placeHandOffInOwner(Diagnostic& d, const std::vector<std::string>& lines);

}  // namespace kwb
