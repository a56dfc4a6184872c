#include <QApplication>
#include <QCommandLineParser>
#include <QDir>

#include "ui/MainWindow.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("kernel-workbench"));
  QApplication::setOrganizationName(QStringLiteral("KernelWorkbench"));
  QApplication::setApplicationVersion(QStringLiteral(KWB_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Develop Ascend C kernels with an LLM agent"));
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption taskOpt(QStringLiteral("task"), QStringLiteral("Task folder to open"), QStringLiteral("DIR"),
                             QStringLiteral(KWB_SOURCE_DIR "/resources/tasks/add_custom"));
  parser.addOption(taskOpt);
  parser.process(app);

  kwb::ui::MainWindow window;
  window.openTask(parser.value(taskOpt));
  window.show();
  return QApplication::exec();
}
