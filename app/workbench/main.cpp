// SPDX-License-Identifier: MIT
#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QStatusBar>

#include "core/base/InstallLayout.h"
#include "ui/MainWindow.h"
#include "ui/ProviderSettings.h"
#include "ui/WorkbenchApp.h"

int main(int argc, char** argv) {
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
  parser.addOption(taskOpt);
  parser.addOption(sessionOpt);
  parser.addOption(lessonOpt);
  parser.process(app);

  kwb::ui::WorkbenchApp workbench(resources);
  // A session or lesson that cannot be opened leaves the default task on screen, with the reason.
  bool opened = false;
  QString why;
  if (parser.isSet(sessionOpt)) {
    opened = workbench.openSession(parser.value(sessionOpt));
  } else if (parser.isSet(lessonOpt)) {
    opened = workbench.openLesson(parser.value(lessonOpt));
  }
  if (!opened) {
    why = workbench.lastError();
    QSettings settings;
    workbench.startOnTask(parser.value(taskOpt), kwb::ui::loadProviderSettings(settings),
                          workbench.sessionsRoot());
    if (parser.isSet(sessionOpt) || parser.isSet(lessonOpt))
      workbench.window()->statusBar()->showMessage(
          QStringLiteral("Could not open %1: %2")
              .arg(parser.isSet(sessionOpt) ? parser.value(sessionOpt) : parser.value(lessonOpt), why));
  }
  workbench.window()->show();
  return QApplication::exec();
}
