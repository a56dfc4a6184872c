#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QStandardPaths>

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
  const QString resources = QStringLiteral(KWB_SOURCE_DIR "/resources");
  QCommandLineOption taskOpt(QStringLiteral("task"), QStringLiteral("Task folder to open"), QStringLiteral("DIR"),
                             resources + QStringLiteral("/tasks/add_custom"));
  QCommandLineOption sessionOpt(QStringLiteral("session"), QStringLiteral("Open a session folder (read-only view)"),
                                QStringLiteral("DIR"));
  parser.addOption(taskOpt);
  parser.addOption(sessionOpt);
  parser.process(app);

  kwb::ui::WorkbenchApp workbench(resources);
  if (parser.isSet(sessionOpt)) {
    workbench.window()->openSessionDir(parser.value(sessionOpt));
  } else {
    QSettings settings;
    workbench.startOnTask(parser.value(taskOpt), kwb::ui::loadProviderSettings(settings),
                          QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                              QStringLiteral("/sessions"));
  }
  workbench.window()->show();
  return QApplication::exec();
}
