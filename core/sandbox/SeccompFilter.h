// SPDX-License-Identifier: MIT
#pragma once
// The seccomp filter bubblewrap loads (--seccomp FD) before it starts the sandboxed program.
//
// The network namespace already makes every connection fail; the filter is there so that an attempt is
// *seen*: creating a socket of any family other than AF_UNIX kills the process with SIGSYS, which the
// sandbox reports as a `sandbox-violation` naming the attempt. io_uring_setup fails with ENOSYS (an
// io_uring can create sockets without socket(2)). System calls of a foreign ABI (x32, i386 on x86_64)
// kill the process, since they would bypass the checks. Everything else is allowed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kwb {

// True when a filter can be built for the architecture this was compiled for (x86_64, aarch64).
bool seccompFilterSupported();

// The filter as raw `struct sock_filter` records (the form bwrap --seccomp reads). Empty when unsupported.
std::vector<std::uint8_t> buildNetworkSeccompFilter();

// Path of a file holding the filter, written once per process into a private per-user folder under
// the temp directory (kept so that printed command lines stay re-runnable). nullopt with `error` set
// when it cannot be written safely.
std::optional<std::string> networkSeccompFilterFile(std::string& error);

}  // namespace kwb
