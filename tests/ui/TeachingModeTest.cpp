// SPDX-License-Identifier: MIT
// Teaching mode: a lesson opened in the workbench plays on the emulator with its recorded replies, and
// each step's explanation sits beside the diff of the iteration it produced; Previous/Next walk it.
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/agent/AgentLoop.h"
#include "core/agent/Lesson.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/AgentBridge.h"
#include "ui/DiffView.h"
#include "ui/LessonNotesPanel.h"
#include "ui/MainWindow.h"
#include "ui/WorkbenchApp.h"

using namespace kwb;

class TeachingModeTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;

 private slots:
  void initTestCase() { uitest::isolateSettings(settingsDir_.path()); }

  void lessonStepsShowBesideTheirDiff() {
    const Lesson lesson = loadLesson("missing-sync");
    QVERIFY(lesson.steps.size() >= 2);
    QTemporaryDir sessions;
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    QVERIFY2(app.openLesson(QStringLiteral("missing-sync")), qPrintable(app.lastError()));
    ui::MainWindow* w = app.window();
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QVERIFY(w->teaching());
    QVERIFY(w->lessonNotes()->isVisible());
    QCOMPARE(w->rightTabs()->currentWidget(), static_cast<QWidget*>(w->diffTab()));
    QVERIFY(w->lessonNotes()->text().contains(QString::fromStdString(lesson.title)));

    // Next step plays one step, not the whole lesson: step 1's iteration gets its verdict on the
    // emulator, the lesson pauses there and shows it.
    AgentLoop& loop = app.bridge()->loop();
    auto finished = [&] {
      int n = 0;
      for (const auto& it : w->session().iterations) n += isFinal(it.state);
      return n;
    };
    emit w->lessonNotes()->nextRequested();
    QVERIFY(uitest::waitFor([&] { return finished() >= 1 && loop.state() == AgentState::Paused; }, 240000));
    QTest::qWait(500);  // the bridge delivers the last events
    QCOMPARE(finished(), 1);
    QCOMPARE(loop.state(), AgentState::Paused);
    const int firstId = loop.snapshot().iterations.front().id;
    QCOMPARE(w->selectedIteration(), std::optional<int>(firstId));
    QCOMPARE(w->lessonNotes()->shownStep(), std::optional<int>(0));
    // Step 1 has no parent: its diff is against the task's starting point.
    QVERIFY(w->diffView()->comparedIds());
    QCOMPARE(w->diffView()->comparedIds()->first, 0);
    QCOMPARE(w->diffView()->comparedIds()->second, firstId);
    QVERIFY(w->diffView()->changedRowCount() > 0);

    // The next click plays step 2.
    emit w->lessonNotes()->nextRequested();
    QVERIFY(uitest::waitFor([&] { return finished() >= 2; }, 240000));
    QTest::qWait(500);
    const Session s = loop.snapshot();
    QCOMPARE(s.iterations.size(), lesson.steps.size());
    QCOMPARE(w->lessonNotes()->shownStep(), std::optional<int>(1));

    // Step 2: its iteration is selected, its explanation is shown beside its diff against step 1.
    w->showLessonStep(1);
    QCOMPARE(w->selectedIteration(), std::optional<int>(s.iterations[1].id));
    QCOMPARE(w->lessonNotes()->shownStep(), std::optional<int>(1));
    const QString notes = w->lessonNotes()->text();
    QVERIFY2(notes.contains(QString::fromStdString(lesson.steps[1].title)), qPrintable(notes));
    QVERIFY(notes.contains(QString::fromStdString(lesson.steps[1].explanation.substr(0, 40))));
    QVERIFY(w->diffView()->changedRowCount() > 0);
    QCOMPARE(w->rightTabs()->currentWidget(), static_cast<QWidget*>(w->diffTab()));
    w->resize(1600, 950);
    QVERIFY(w->grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/teaching.png")));

    // Previous goes back to step 1 (its first attempt, with the emulator's diagnostics).
    emit w->lessonNotes()->previousRequested();
    QCOMPARE(w->selectedIteration(), std::optional<int>(s.iterations[0].id));
    QVERIFY(w->lessonNotes()->text().contains(QString::fromStdString(lesson.steps[0].title)));

    // Selecting an iteration in the timeline moves the notes along.
    w->selectIteration(s.iterations[1].id);
    QCOMPARE(w->lessonNotes()->shownStep(), std::optional<int>(1));

    // Reopening the lesson session keeps teaching mode (the lesson is found from the session).
    const QString dir = app.sessionDir();
    app.bridge()->loop().stop();
    ui::WorkbenchApp again(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    QVERIFY(uitest::openSessionAndWait(again, dir));
    // The first window still holds the session's lock, so this one shows it read-only and says why.
    QVERIFY(!again.window()->action(QStringLiteral("start"))->isEnabled());
    QVERIFY(again.window()->teaching());
    QCOMPARE(again.window()->session().iterations.size(), lesson.steps.size());
  }

  void aBrokenLessonNameIsAClearError() {
    QTemporaryDir sessions;
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    QVERIFY(!app.openLesson(QStringLiteral("no-such-lesson")));
    QVERIFY(app.lastError().contains(QStringLiteral("no-such-lesson")));
    QVERIFY(!app.window()->teaching());
  }
};

QTEST_MAIN(TeachingModeTest)
#include "TeachingModeTest.moc"
