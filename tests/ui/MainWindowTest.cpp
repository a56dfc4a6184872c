#include <QImage>
#include <QtTest>

#include "ui/KernelEditor.h"
#include "ui/LatencyChart.h"
#include "ui/MainWindow.h"

class MainWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void opensBuiltInTaskAndRendersNonEmptyScreenshot() {
    kwb::ui::MainWindow w;
    QVERIFY(w.openTask(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks/add_custom")));
    QVERIFY(!w.editor()->text().isEmpty());
    w.latencyChart()->setLatencies({12.5, 9.0, std::nullopt, 7.25}, 10.0);
    QCOMPARE(w.latencyChart()->pointCount(), 3);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QImage shot = w.grab().toImage();
    QVERIFY(!shot.isNull());
    QVERIFY(shot.width() > 200 && shot.height() > 200);
    // A blank window would be one colour; a rendered editor and chart have many.
    QSet<QRgb> colours;
    for (int y = 0; y < shot.height(); y += 7)
      for (int x = 0; x < shot.width(); x += 7) colours.insert(shot.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));
    QVERIFY(shot.save(QStringLiteral(KWB_TEST_OUT_DIR "/main_window.png")));
  }

  void missingTaskFolderIsReportedNotFatal() {
    kwb::ui::MainWindow w;
    QVERIFY(!w.openTask(QStringLiteral("/nonexistent/task")));
    QVERIFY(w.shownFile().isEmpty());
  }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
