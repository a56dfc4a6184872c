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

class TimelineModelTest : public QObject {
  Q_OBJECT
 private slots:
  void chainStaysFlatAndBranchesNest() {
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Session s;
    s.iterations = {iter(1, std::nullopt), iter(2, 1), iter(3, 2), iter(4, 2), iter(5, 4), iter(6, 1)};
    s.acceptedIteration = 5;
    model.setSession(s);
    // 1,2,3 form the main line; 4 branches from 2 (5 continues it); 6 branches from 1.
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(2, 0).data(TimelineModel::IterationIdRole).toInt(), 3);
    const QModelIndex two = model.indexOfIteration(2);
    QCOMPARE(model.rowCount(two), 2);
    QCOMPARE(model.index(0, 0, two).data(TimelineModel::IterationIdRole).toInt(), 4);
    QCOMPARE(model.index(1, 0, two).data(TimelineModel::IterationIdRole).toInt(), 5);
    QVERIFY(model.index(0, 0, two).data(TimelineModel::IsBranchStartRole).toBool());
    QVERIFY(!model.index(1, 0, two).data(TimelineModel::IsBranchStartRole).toBool());
    QCOMPARE(model.rowCount(model.indexOfIteration(1)), 1);
    QVERIFY(model.indexOfIteration(5).data(TimelineModel::IsAcceptedRole).toBool());
    QVERIFY(model.indexOfIteration(5).data().toString().contains(QStringLiteral("★")));
    QCOMPARE(model.parent(model.indexOfIteration(6)), model.indexOfIteration(1));
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
