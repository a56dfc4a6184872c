// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QtTest>

#include "ui/TimelineModel.h"

using namespace kwb;
using kwb::ui::TimelineModel;

static Iteration iter(int id, std::optional<int> parent, std::optional<Verdict> v = Verdict::Pass,
                      double us = 0) {
  Iteration it;
  it.id = id;
  it.parentId = parent;
  it.verdict = v;
  it.state = v ? IterationState::Done : IterationState::Compiling;
  if (us > 0) {
    ProfileReport p;
    p.totalUs = us;
    p.source = "emulator-model";
    it.profile = p;
  }
  return it;
}

// Ids top to bottom with every row expanded, as a reader sees the timeline.
static QList<int> readingOrder(const TimelineModel& model, const QModelIndex& parent = {}) {
  QList<int> out;
  for (int r = 0; r < model.rowCount(parent); ++r) {
    const QModelIndex i = model.index(r, 0, parent);
    out << i.data(TimelineModel::IterationIdRole).toInt();
    out << readingOrder(model, i);
  }
  return out;
}

class TimelineModelTest : public QObject {
  Q_OBJECT
 private slots:
  // The rows read in the order the iterations happened: the main line (1 to the newest) on the top
  // level in id order, every other child nested under the iteration it branched from.
  void mainLineToTheNewestWithBranchesUnderTheirParent() {
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Session s;
    s.iterations = {iter(1, std::nullopt), iter(2, 1), iter(3, 2), iter(4, 2), iter(5, 4), iter(6, 1)};
    s.acceptedIteration = 5;
    model.setSession(s);
    // Main line 1, 6; 2 branches from 1 and continues with 4, 5 (the newest of its subtree); 3 branches
    // from 2.
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, 0).data(TimelineModel::IterationIdRole).toInt(), 1);
    QCOMPARE(model.index(1, 0).data(TimelineModel::IterationIdRole).toInt(), 6);
    const QModelIndex one = model.indexOfIteration(1);
    QCOMPARE(model.rowCount(one), 3);
    QCOMPARE(model.index(0, 0, one).data(TimelineModel::IterationIdRole).toInt(), 2);
    QCOMPARE(model.index(1, 0, one).data(TimelineModel::IterationIdRole).toInt(), 4);
    QCOMPARE(model.index(2, 0, one).data(TimelineModel::IterationIdRole).toInt(), 5);
    QVERIFY(model.index(0, 0, one).data(TimelineModel::IsBranchStartRole).toBool());
    QVERIFY(!model.index(1, 0, one).data(TimelineModel::IsBranchStartRole).toBool());
    QCOMPARE(model.parent(model.indexOfIteration(3)), model.indexOfIteration(2));
    QVERIFY(model.indexOfIteration(5).data(TimelineModel::IsAcceptedRole).toBool());
    QVERIFY(model.indexOfIteration(5).data().toString().contains(QStringLiteral("★")));
    QCOMPARE(readingOrder(model), (QList<int>{1, 2, 3, 4, 5, 6}));
  }

  // The session: the agent optimising from its best (1, then 3, 5, 6, 8) with failed attempts
  // in between. Listed top to bottom, expanded, it reads 1 … 8 in order; before, it read 1, 3, 5, 6, 8
  // and then 4, 2, 7.
  void anOptimisingSessionReadsInOrder() {
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Session s;
    s.iterations = {iter(1, std::nullopt),
                    iter(2, 1, Verdict::WrongAnswer),
                    iter(3, 1),
                    iter(4, 3, Verdict::CompileError),
                    iter(5, 3),
                    iter(6, 5),
                    iter(7, 6, Verdict::WrongAnswer),
                    iter(8, 6)};
    model.setSession(s);
    QCOMPARE(readingOrder(model), (QList<int>{1, 2, 3, 4, 5, 6, 7, 8}));
    QList<int> top;
    for (int r = 0; r < model.rowCount(); ++r)
      top << model.index(r, 0).data(TimelineModel::IterationIdRole).toInt();
    QCOMPARE(top, (QList<int>{1, 3, 5, 6, 8}));
    // The same session arriving live builds the same tree.
    TimelineModel live;
    QAbstractItemModelTester liveTester(&live, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (const auto& it : s.iterations) live.upsertIteration(it);
    QCOMPARE(readingOrder(live), readingOrder(model));
    QCOMPARE(live.rowCount(), model.rowCount());
  }

  // A branch says how it came about: the agent building on its best again, the engineer's roll back,
  // or the engineer's edit.
  void branchesSayWhoStartedThem() {
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Session s;
    Iteration rolled = iter(4, 1);
    rolled.afterRollback = true;
    Iteration edit = iter(5, 1);
    edit.origin = Origin::Human;
    edit.candidate.origin = Origin::Human;
    s.iterations = {iter(1, std::nullopt), iter(2, 1), iter(3, 1), rolled, edit, iter(6, 5)};
    model.setSession(s);
    using Cause = TimelineModel::BranchCause;
    auto cause = [&](int id) {
      return Cause(model.indexOfIteration(id).data(TimelineModel::BranchCauseRole).toInt());
    };
    // By history: 2 is 1's first child (nested, since the main line runs 1, 5, 6, but no branch); 3, 4
    // and 5 came later.
    QCOMPARE(cause(1), Cause::None);
    QCOMPARE(cause(2), Cause::None);
    QVERIFY(model.indexOfIteration(2).data(TimelineModel::IsBranchStartRole).toBool());
    QCOMPARE(cause(3), Cause::AgentRetry);
    QCOMPARE(cause(4), Cause::Rollback);
    QCOMPARE(cause(5), Cause::HumanEdit);
    QCOMPARE(cause(6), Cause::None);
    auto text = [&](int id) { return model.indexOfIteration(id).data().toString(); };
    auto tip = [&](int id) { return model.indexOfIteration(id).data(Qt::ToolTipRole).toString(); };
    QVERIFY2(text(3).contains(QStringLiteral("agent")), qPrintable(text(3)));
    QVERIFY2(tip(3).contains(QStringLiteral("The agent built on iteration 1")), qPrintable(tip(3)));
    QVERIFY2(text(4).contains(QStringLiteral("rolled back to 1")), qPrintable(text(4)));
    QVERIFY2(tip(4).contains(QStringLiteral("You rolled back")), qPrintable(tip(4)));
    QVERIFY(text(3) != text(4));
    QCOMPARE(text(2), QStringLiteral("2"));
    // An edit that the main line does not continue is the engineer's own branch.
    Session withEdit;
    Iteration branchEdit = iter(3, 1);
    branchEdit.candidate.origin = Origin::Human;
    withEdit.iterations = {iter(1, std::nullopt), iter(2, 1), branchEdit, iter(4, 2)};
    model.setSession(withEdit);
    QCOMPARE(cause(3), Cause::HumanEdit);
    QVERIFY2(tip(3).contains(QStringLiteral("Your edit of iteration 1")), qPrintable(tip(3)));
    QVERIFY2(text(3).contains(QStringLiteral("edit of 1")), qPrintable(text(3)));
  }

  // A damaged session (a parent link to a later iteration) cannot make rows vanish in a cycle.
  void aBadParentLinkMakesARoot() {
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Session s;
    Iteration bad = iter(2, 3);
    s.iterations = {iter(1, std::nullopt), bad, iter(3, 2), iter(4, 99)};
    model.setSession(s);
    QCOMPARE(readingOrder(model).size(), 4);
  }

  void stagesShowCompileRunVerify() {
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Iteration it = iter(1, std::nullopt, std::nullopt);
    QCOMPARE(model.columnCount(), int(TimelineModel::ColumnCount));
    model.upsertIteration(it);
    QCOMPARE(model.index(0, TimelineModel::StagesColumn).data().toString(), QStringLiteral("… · ·"));
    CompileResult c;
    c.ok = true;
    it.compile = c;
    RunResult r;
    r.status = RunStatus::Ok;
    it.run = r;
    VerifyReport v;
    v.verdict = Verdict::WrongAnswer;
    it.verify = v;
    it.verdict = Verdict::WrongAnswer;
    it.state = IterationState::Done;
    model.upsertIteration(it);
    QCOMPARE(model.index(0, TimelineModel::StagesColumn).data().toString(), QStringLiteral("✓ ✓ ✗"));
    const QString tip = model.index(0, TimelineModel::StagesColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("verify: wrong_answer")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("run: ok on the emulator")));
  }

  void liveUpdatesInsertAndRefreshRows() {
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setBaselineUs(20.0);
    model.upsertIteration(iter(1, std::nullopt, std::nullopt));
    QCOMPARE(model.index(0, TimelineModel::StatusColumn).data().toString(), QStringLiteral("compiling…"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.upsertIteration(iter(1, std::nullopt, Verdict::Pass, 10.0));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(model.index(0, TimelineModel::StatusColumn).data().toString(), QStringLiteral("pass"));
    QCOMPARE(model.index(0, TimelineModel::SpeedupColumn).data().toString(), QStringLiteral("2.00×"));
    QVERIFY(model.index(0, TimelineModel::LatencyColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains("not a device"));
    model.upsertIteration(iter(2, 1, Verdict::WrongAnswer));
    model.upsertIteration(iter(3, 1, Verdict::CompileError));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowCount(model.indexOfIteration(1)), 1);
    model.setAccepted(2);
    QVERIFY(model.indexOfIteration(2).data(TimelineModel::IsAcceptedRole).toBool());
    model.setAccepted(std::nullopt);
    QVERIFY(!model.indexOfIteration(2).data(TimelineModel::IsAcceptedRole).toBool());
    // A wrong kernel's time is no speedup.
    model.upsertIteration(iter(4, 3, Verdict::WrongAnswer, 5.0));
    QVERIFY(model.indexOfIteration(4, TimelineModel::LatencyColumn).data().isValid());
    QVERIFY(!model.indexOfIteration(4, TimelineModel::SpeedupColumn).data().isValid());
  }

  void thousandIterationChainLoads() {
    TimelineModel model;
    Session s;
    for (int i = 1; i <= 1000; ++i)
      s.iterations.push_back(iter(i, i == 1 ? std::nullopt : std::optional<int>(i - 1)));
    model.setSession(s);
    QCOMPARE(model.rowCount(), 1000);
    QCOMPARE(model.iterationCount(), 1000);
  }
};

QTEST_MAIN(TimelineModelTest)
#include "TimelineModelTest.moc"
