// SPDX-License-Identifier: MIT
// Teaching mode: a lesson opened in the workbench plays on the emulator with its recorded replies, and
// each step's explanation sits beside the diff of the iteration it produced; Previous/Next walk it.
#include <QPushButton>
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
#include "ui/KernelEditor.h"
#include "ui/LessonNotesPanel.h"
#include "ui/LessonProgress.h"
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
    QVERIFY2(lesson.steps[1].lookAt && notes.contains(QString::fromStdString(lesson.steps[1].lookAt->what)),
             qPrintable(notes));
    QVERIFY(w->diffView()->changedRowCount() > 0);
    QCOMPARE(w->rightTabs()->currentWidget(), static_cast<QWidget*>(w->diffTab()));
    w->resize(1600, 950);
    QVERIFY(w->grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/teaching.png")));

    // Previous goes back to step 1 (its first attempt, with the emulator's diagnostics).
    emit w->lessonNotes()->previousRequested();
    QCOMPARE(w->selectedIteration(), std::optional<int>(s.iterations[0].id));
    QVERIFY(w->lessonNotes()->text().contains(QString::fromStdString(lesson.steps[0].title)));

    // Playing the last step records the lesson as completed in the user's settings.
    QVERIFY(ui::LessonProgress().lessonCompleted(QStringLiteral("missing-sync")));

    // Selecting an iteration in the timeline moves the notes along.
    w->selectIteration(s.iterations[1].id);
    QCOMPARE(w->lessonNotes()->shownStep(), std::optional<int>(1));

    // The played iterations made into a lesson draft, from the timeline's action (on a worker).
    QSignalSpy drafted(w, &ui::MainWindow::lessonDraftWritten);
    const QString draftDir = sessions.path() + QStringLiteral("/draft");
    w->makeLessonDraft({s.iterations[0].id, s.iterations[1].id}, draftDir);
    QVERIFY(drafted.wait(60000));
    QVERIFY2(drafted.first().at(0).toBool(), qPrintable(drafted.first().at(1).toString()));
    const Lesson draft = loadLesson(draftDir.toStdString());
    QCOMPARE(draft.steps.size(), 2u);
    QVERIFY(draft.steps[0].explanation.rfind("TODO", 0) == 0);
    w->makeLessonDraft({s.iterations[0].id}, draftDir);  // not empty any more: a clear error
    QVERIFY(drafted.wait(60000));
    QVERIFY(!drafted.last().at(0).toBool());
    QVERIFY(drafted.last().at(1).toString().contains(QStringLiteral("not empty")));

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

  void anExerciseIsGradedInTheLessonPanelAndRecordedAsSolved() {
    const Lesson lesson = loadLesson("first-kernel");
    QVERIFY(lesson.exercise);
    QTemporaryDir sessions;
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), sessions.path());
    QVERIFY2(app.openLesson(QStringLiteral("first-kernel")), qPrintable(app.lastError()));
    ui::MainWindow* w = app.window();
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    ui::LessonNotesPanel* notes = w->lessonNotes();
    QVERIFY(notes->checkButton()->isVisible());
    QVERIFY(!ui::LessonProgress().exerciseSolved(QStringLiteral("first-kernel")));

    // The hint ladder, one rung per click.
    QTest::mouseClick(notes->hintButton(), Qt::LeftButton);
    QCOMPARE(notes->hintsShown(), 1);
    QVERIFY2(notes->text().contains(QString::fromStdString(lesson.exercise->hints[0])),
             qPrintable(notes->text()));
    QVERIFY(!notes->text().contains(QString::fromStdString(lesson.exercise->hints[1])));

    // The starting kernel fails its grading, shown in the panel.
    QSignalSpy graded(w, &ui::MainWindow::exerciseGraded);
    emit notes->exerciseStartRequested();
    QCOMPARE(w->editor()->text(), QString::fromStdString(lesson.exercise->startKernel));
    QTest::mouseClick(notes->checkButton(), Qt::LeftButton);
    QVERIFY(!notes->checkButton()->isEnabled());  // one grading at a time
    QVERIFY(graded.wait(240000));
    QCOMPARE(graded.takeFirst().at(0).toBool(), false);
    QVERIFY2(notes->gradeText().contains(QStringLiteral("not yet")), qPrintable(notes->gradeText()));
    QVERIFY(!ui::LessonProgress().exerciseSolved(QStringLiteral("first-kernel")));

    // The revealed solution passes, and the exercise is recorded as solved.
    emit notes->exerciseSolutionRequested();
    QTest::mouseClick(notes->checkButton(), Qt::LeftButton);
    QVERIFY(graded.wait(240000));
    QCOMPARE(graded.takeFirst().at(0).toBool(), true);
    QVERIFY2(notes->gradeText().contains(QStringLiteral("solved")), qPrintable(notes->gradeText()));
    QVERIFY(ui::LessonProgress().exerciseSolved(QStringLiteral("first-kernel")));
    QVERIFY(ui::LessonProgress()
                .badge(QStringLiteral("first-kernel"))
                .contains(QStringLiteral("exercise solved")));
    w->resize(1600, 950);
    QVERIFY(w->grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/teaching-exercise.png")));
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
