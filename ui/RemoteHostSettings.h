// SPDX-License-Identifier: MIT
#pragma once
// The remote NPU host the workbench evaluates on over ssh (Settings ▸ Backend; docs/workbench.md,
// "Settings"; docs/suites.md, "SSH"): the ssh:// address, the ssh config file, the remote work folder
// and the remote CANN toolkit, kept with QSettings (group `remoteHost`). Checked with the CLI's own
// checks (core/remote/SshExecutorSetup.h), one message per field. No password or key is ever stored:
// keys come only from the user's ssh agent and ssh config.

#include <QSettings>
#include <QString>

#include "core/base/Environment.h"
#include "core/remote/SshExecutorSetup.h"

namespace kwb::ui {

// The new-session backend choice that means "ascend-cann on the remote host" (NewSessionChoice,
// SessionDefaults); the session itself records "ascend-cann", as RemoteCannBackend names itself.
inline constexpr const char* kRemoteBackendChoice = "remote-ssh";

struct RemoteHostSettings {
  QString url;         // ssh://user@host[:port]
  QString sshConfig;   // empty: $KWB_SSH_CONFIG, else ~/.ssh/config (as `kwb suite run --ssh-config`)
  QString remoteDir;   // empty: ~/.cache/kwb-remote on the host
  QString remoteCann;  // empty: the toolkit the host's login environment names (the probe finds it)
  bool operator==(const RemoteHostSettings&) const = default;
};

RemoteHostSettings loadRemoteHostSettings(QSettings& settings);
void saveRemoteHostSettings(QSettings& settings, const RemoteHostSettings& host);

// The stored settings for a session on `url`: a session keeps the address it was made with, and takes
// the ssh config and remote folders stored now.
RemoteHostSettings remoteHostForSession(QSettings& settings, const QString& url);

// The options of the shared ssh setup; a leading `~/` of the config file is the home folder (the
// shell expands it for the CLI; a typed one in the dialog is not).
remote::SshOptions toSshOptions(const RemoteHostSettings& host);

// What is wrong with each field, empty where nothing is (checkSshOptions' messages).
struct RemoteHostProblems {
  QString url;
  QString sshConfig;
  QString remoteDir;
  QString remoteCann;
  bool any() const {
    return !url.isEmpty() || !sshConfig.isEmpty() || !remoteDir.isEmpty() || !remoteCann.isEmpty();
  }
  // The first problem, naming its field ("Host: …"); empty when there is none.
  QString summary() const;
};
RemoteHostProblems checkRemoteHost(const RemoteHostSettings& host,
                                   const EnvLookup& env = processEnvironment());

// The ssh config file a check or a session uses, for display: the field, else $KWB_SSH_CONFIG, else
// "~/.ssh/config".
QString effectiveSshConfigText(const RemoteHostSettings& host, const EnvLookup& env = processEnvironment());

}  // namespace kwb::ui
