// SPDX-License-Identifier: MIT
#pragma once
// `ascend-cann` on a remote NPU host over ssh (docs/suites.md, "SSH"). The workbench keeps every
// trusted step: it generates the kernel-launch workspace here (prepareCannWorkspace, as CannBackend),
// then per evaluation
//   compile  ships the workspace (tar over ssh) to REMOTE_DIR/w-<hash>/ and builds it there with the
//            remote toolkit's bisheng (g++ + tikicpulib in cpu mode), the same argv as locally;
//   run      per case: ships the shapes-only tiling manifest, runs `APP tiling` in the remote sandbox
//            (RemoteRunScript.h), fetches the result and judges it here (judgeTilingRun); only then
//            ships the inputs and the kernel manifest and runs `APP kernel` under `msprof op` (npu) or
//            `msprof op simulator` (sim); fetches each expected result file with a size cap and
//            msprof's CSVs, all read as hostile input (readCaseResults, MsprofParser).
// ran_on is the remote host's mode (npu only with a /dev/davinci device there). ssh failures
// (unreachable, authentication, host key) become diagnostics that say so and how to fix it.

#include <memory>

#include "core/remote/RemoteHostProbe.h"
#include "core/remote/SshSession.h"
#include "core/toolchain/Backend.h"

namespace kwb::remote {

struct RemoteBackendSettings {
  SshSettings ssh;
  std::string remoteDir;  // absolute remote folder of the workspaces; empty: $HOME/.cache/kwb-remote
  // The evaluation's remote workspace is removed when the backend ends, and each build first removes
  // workspaces under the folder untouched for this long (left by killed runs): docs/suites.md, "SSH".
  bool keepRemoteWorkspace = false;
  int staleWorkspaceMinutes = 24 * 60;
};

class RemoteCannBackend : public Backend {
 public:
  // `facts`: the host's probe (probeRemoteHost), shared by every evaluation of a run.
  RemoteCannBackend(BackendOptions options, RemoteBackendSettings settings,
                    std::shared_ptr<const RemoteHostFacts> facts);
  ~RemoteCannBackend() override;
  RemoteCannBackend(const RemoteCannBackend&) = delete;
  RemoteCannBackend& operator=(const RemoteCannBackend&) = delete;
  RemoteCannBackend(RemoteCannBackend&&) = delete;
  RemoteCannBackend& operator=(RemoteCannBackend&&) = delete;
  std::string name() const override { return "ascend-cann"; }
  std::string soc() const override { return options_.soc; }
  RanOn ranOn() const override;
  std::vector<Diagnostic> prepare(const Task& task, const std::string& candidateSource,
                                  const std::filesystem::path& workDir,
                                  const std::map<std::string, std::string>& companions = {}) override;
  CompileResult compile() override;
  CaseRunResult run(const verify::PreparedCase& prepared, const CaseFiles& files) override;
  std::map<std::string, std::string> artifacts() const override;

  const std::string& mode() const { return mode_; }
  // The remote workspace of the prepared candidate.
  const std::string& remoteWorkspace() const { return remoteWork_; }

 private:
  Diagnostic connectionError(const RemoteRun& r, const std::string& step) const;
  // The remote file's bytes into `local` (at most `maxBytes` + 1 are read). False: not fetched.
  bool fetchFile(const std::string& remote, const std::filesystem::path& local, std::size_t maxBytes,
                 std::vector<Diagnostic>& diagnostics) const;
  std::string fetchText(const std::string& findName, const std::string& underDir) const;

  BackendOptions options_;
  RemoteBackendSettings settings_;
  SshSession session_;
  std::shared_ptr<const RemoteHostFacts> facts_;
  std::string mode_;
  const Task* task_ = nullptr;
  SocInfo soc_;
  std::filesystem::path workDir_;
  std::vector<std::string> workspaceFiles_;  // relative names shipped to the remote
  std::string remoteRoot_;
  std::string remoteWork_;
};

// The remote workspace folder of a local work folder: ROOT/w-<16 hex of the path's hash>.
std::string remoteWorkspaceFor(const std::string& remoteRoot, const std::filesystem::path& localWorkDir);

// The remote path of a local case file (under files.dir) in the remote case folder.
std::string remoteCasePath(const std::filesystem::path& localCaseDir, const std::string& remoteCaseDir,
                           const std::filesystem::path& localFile);

}  // namespace kwb::remote
