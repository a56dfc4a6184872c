// SPDX-License-Identifier: MIT
#include <QApplication>
#include <QCommandLineParser>

#include "core/base/InstallLayout.h"
#include "ui/MainWindow.h"
#include "ui/QuitOnSignal.h"
#include "ui/WorkbenchApp.h"

namespace {

// QGuiApplication takes "-session ID"/"--session ID" (X11 session management) out of argv, which
// turned `--session DIR` into a plain launch: the value is read from the arguments as given.
QString sessionArgument(const QStringList& given) {
  for (qsizetype i = 1; i < given.size(); ++i) {
    const QString& a = given.at(i);
    if (a == QStringLiteral("--")) break;
    if ((a == QStringLiteral("--session") || a == QStringLiteral("-session")) && i + 1 < given.size())
      return given.at(i + 1);
    if (a.startsWith(QStringLiteral("--session="))) return a.mid(10);
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  QStringList given;
  for (int i = 0; i < argc; ++i) given << QString::fromLocal8Bit(argv[i]);
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("kernel-workbench"));
  QApplication::setOrganizationName(QStringLiteral("KernelWorkbench"));
  QApplication::setApplicationVersion(QStringLiteral(KWB_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Develop Ascend C kernels with an LLM agent"));
  parser.addHelpOption();
  parser.addVersionOption();
  const QString resources =
      QString::fromStdString((kwb::currentInstallLayout().dataRoot / "resources").string());
  QCommandLineOption taskOpt(QStringLiteral("task"), QStringLiteral("Task folder to open"),
                             QStringLiteral("DIR"), resources + QStringLiteral("/tasks/add_custom"));
  QCommandLineOption sessionOpt(
      QStringLiteral("session"),
      QStringLiteral("Reopen a session folder (continues it when a provider is configured)"),
      QStringLiteral("DIR"));
  QCommandLineOption lessonOpt(QStringLiteral("lesson"),
                               QStringLiteral("Open a lesson in teaching mode (name or folder)"),
                               QStringLiteral("NAME"));
  QCommandLineOption newOpt(QStringLiteral("new"),
                            QStringLiteral("Start on the task instead of reopening the last session"));
  QCommandLineOption suiteOpt(QStringLiteral("suite"),
                              QStringLiteral("Open the suite view over a kwb suite run folder"),
                              QStringLiteral("DIR"));
  parser.addOption(suiteOpt);
  parser.addOption(taskOpt);
  parser.addOption(sessionOpt);
  parser.addOption(lessonOpt);
  parser.addOption(newOpt);
  parser.process(app);  // what Qt left: its own options (-platform, -style, …) are gone

  kwb::ui::LaunchRequest request;
  request.taskDir = parser.value(taskOpt);
  request.sessionDir = parser.isSet(sessionOpt) ? parser.value(sessionOpt) : sessionArgument(given);
  request.lesson = parser.value(lessonOpt);
  request.suiteDir = parser.value(suiteOpt);
  // A plain launch reopens the last session (docs/workbench.md, "Sessions").
  request.reopenLast = !parser.isSet(taskOpt) && !parser.isSet(newOpt);
  kwb::ui::WorkbenchApp workbench(resources);
  // A terminal's Ctrl+C, `kill` or a logout quit like Session ▸ Quit, so no scratch is left behind.
  kwb::ui::QuitOnSignal quitOnSignal;
  workbench.launch(request);
  workbench.window()->show();
  // A new user's first launch offers the tour (docs/workbench.md, "First-run tour").
  workbench.window()->maybeShowFirstRunTour();
  return QApplication::exec();
}
