// SPDX-License-Identifier: MIT
#include "ui/RemoteHostSettings.h"

#include <QCoreApplication>
#include <QDir>

namespace kwb::ui {
namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("kwb::ui::RemoteHostSettings", text);
}

QString expandHome(const QString& path) {
  if (path == QStringLiteral("~")) return QDir::homePath();
  if (path.startsWith(QStringLiteral("~/"))) return QDir::homePath() + path.mid(1);
  return path;
}

}  // namespace

RemoteHostSettings loadRemoteHostSettings(QSettings& s) {
  RemoteHostSettings h;
  s.beginGroup(QStringLiteral("remoteHost"));
  h.url = s.value(QStringLiteral("url")).toString();
  h.sshConfig = s.value(QStringLiteral("sshConfig")).toString();
  h.remoteDir = s.value(QStringLiteral("remoteDir")).toString();
  h.remoteCann = s.value(QStringLiteral("remoteCann")).toString();
  s.endGroup();
  return h;
}

void saveRemoteHostSettings(QSettings& s, const RemoteHostSettings& h) {
  s.beginGroup(QStringLiteral("remoteHost"));
  s.setValue(QStringLiteral("url"), h.url.trimmed());
  s.setValue(QStringLiteral("sshConfig"), h.sshConfig.trimmed());
  s.setValue(QStringLiteral("remoteDir"), h.remoteDir.trimmed());
  s.setValue(QStringLiteral("remoteCann"), h.remoteCann.trimmed());
  s.endGroup();
  s.sync();
}

RemoteHostSettings remoteHostForSession(QSettings& settings, const QString& url) {
  RemoteHostSettings h = loadRemoteHostSettings(settings);
  h.url = url;
  return h;
}

remote::SshOptions toSshOptions(const RemoteHostSettings& h) {
  remote::SshOptions o;
  o.url = h.url.trimmed().toStdString();
  o.configFile = expandHome(h.sshConfig.trimmed()).toStdString();
  o.remoteDir = h.remoteDir.trimmed().toStdString();
  o.remoteCann = h.remoteCann.trimmed().toStdString();
  return o;
}

QString RemoteHostProblems::summary() const {
  if (!url.isEmpty()) return tr("Host: %1").arg(url);
  if (!sshConfig.isEmpty()) return tr("ssh config: %1").arg(sshConfig);
  if (!remoteDir.isEmpty()) return tr("Remote work folder: %1").arg(remoteDir);
  if (!remoteCann.isEmpty()) return tr("Remote CANN toolkit: %1").arg(remoteCann);
  return {};
}

RemoteHostProblems checkRemoteHost(const RemoteHostSettings& host, const EnvLookup& env) {
  const remote::SshOptionProblems p = remote::checkSshOptions(toSshOptions(host), env);
  RemoteHostProblems out;
  // An empty address is the common case of a host not set yet: say what to enter, not that "" is bad.
  out.url = host.url.trimmed().isEmpty() ? tr("enter the host as ssh://user@host[:port]")
                                         : QString::fromStdString(p.url);
  out.sshConfig = QString::fromStdString(p.configFile);
  out.remoteDir = QString::fromStdString(p.remoteDir);
  out.remoteCann = QString::fromStdString(p.remoteCann);
  return out;
}

QString effectiveSshConfigText(const RemoteHostSettings& host, const EnvLookup& env) {
  const std::string config = remote::effectiveSshConfig(toSshOptions(host), env);
  return config.empty() ? QStringLiteral("~/.ssh/config") : QString::fromStdString(config);
}

}  // namespace kwb::ui
