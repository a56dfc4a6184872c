// SPDX-License-Identifier: MIT
// The first-run tour: offered on a new user's first launch, walks the panels, lessons and providers,
// skippable, never offered again once finished or skipped, always reachable from Help.
#include <QAction>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/ui/UiTestSupport.h"
#include "ui/FirstRunTour.h"
#include "ui/MainWindow.h"
#include "ui/WorkbenchApp.h"

using namespace kwb;

class FirstRunTourTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;

 private slots:
  void initTestCase() { uitest::isolateSettings(settingsDir_.path()); }
  void init() { QSettings().remove(QStringLiteral("tour")); }

  void aNewUserGetsTheTourOnceAndFinishingItIsRemembered() {
    QTemporaryDir sessions;
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    ui::MainWindow* w = app.window();
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QVERIFY(!ui::FirstRunTour::done());
    QPointer<ui::FirstRunTour> tour = w->maybeShowFirstRunTour();
    QVERIFY(tour);
    QVERIFY(QTest::qWaitForWindowExposed(tour));
    QCOMPARE(tour->page(), 0);
    QVERIFY(!tour->backButton()->isEnabled());
    QStringList titles, texts;
    for (int k = 0; k < tour->pageCount(); ++k) {
      titles << tour->pageTitle();
      texts << tour->pageText();
      if (k + 1 < tour->pageCount()) QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    }
    // What each panel is, how to start a lesson, how to connect a provider.
    for (const char* panel : {"editor", "Iterations", "Analysis", "Feedback"})
      QVERIFY2(titles.join(QLatin1Char('|')).contains(QLatin1String(panel)), qPrintable(titles.join('|')));
    QVERIFY(texts.join(QLatin1Char(' ')).contains(QStringLiteral("Tools ▸ Lessons…")));
    QVERIFY(texts.join(QLatin1Char(' ')).contains(QStringLiteral("Tools ▸ LLM provider settings…")));
    QCOMPARE(tour->nextButton()->text(), QStringLiteral("Done"));
    QTest::mouseClick(tour->backButton(), Qt::LeftButton);
    QCOMPARE(tour->page(), tour->pageCount() - 2);
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    w->resize(1400, 900);
    QVERIFY(tour->grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/tour-last-page.png")));
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);          // Done
    QVERIFY(QTest::qWaitFor([&] { return tour.isNull(); }, 5000));  // closed and deleted
    QVERIFY(ui::FirstRunTour::done());
    QVERIFY(!w->maybeShowFirstRunTour());  // not offered again

    // Help ▸ Tour of the workbench shows it whenever asked.
    w->action(QStringLiteral("tour"))->trigger();
    auto* again = w->findChild<ui::FirstRunTour*>(QStringLiteral("firstRunTour"));
    QVERIFY(again);
    QVERIFY(QTest::qWaitForWindowExposed(again));
    again->close();
  }

  void skippingCountsAsDone() {
    QTemporaryDir sessions;
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    ui::MainWindow* w = app.window();
    w->show();
    QPointer<ui::FirstRunTour> tour = w->maybeShowFirstRunTour();
    QVERIFY(tour);
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    QTest::mouseClick(tour->skipButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return tour.isNull(); }, 5000));
    QVERIFY(ui::FirstRunTour::done());
    QVERIFY(!w->maybeShowFirstRunTour());
  }
};

QTEST_MAIN(FirstRunTourTest)
#include "FirstRunTourTest.moc"
