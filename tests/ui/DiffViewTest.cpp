// SPDX-License-Identifier: MIT
#include <QTableWidget>
#include <QtTest>

#include "ui/DiffView.h"

using namespace kwb;

class DiffViewTest : public QObject {
  Q_OBJECT
 private slots:
  void showsChangedLinesAndComparesMetrics() {
    Iteration a, b;
    a.id = 3;
    b.id = 4;
    b.parentId = 3;
    a.candidate.files["kernel.cpp"] = "constexpr int BUFFER_NUM = 1;\nint tile = 1024;\nvoid f();\n";
    b.candidate.files["kernel.cpp"] =
        "constexpr int BUFFER_NUM = 2;\nint tile = 1024;\nvoid f();\nvoid g();\n";
    a.verdict = Verdict::Pass;
    b.verdict = Verdict::Pass;
    ProfileReport pa, pb;
    pa.totalUs = 20;
    pb.totalUs = 12;
    pa.pipes["mte2"] = {100, 0.5};
    pb.pipes["mte2"] = {100, 0.9};
    a.profile = pa;
    b.profile = pb;
    ui::DiffView view;
    view.resize(900, 600);
    view.setIterations(a, b, 24.0);
    QCOMPARE(view.changedRowCount(), 2);
    view.setInline(true);
    QVERIFY(view.inlineText().contains(QStringLiteral("-constexpr int BUFFER_NUM = 1;")));
    QVERIFY(view.inlineText().contains(QStringLiteral("+void g();")));
    auto* t = view.metricsTable();
    bool sawSpeedup = false, sawMte2 = false;
    for (int r = 0; r < t->rowCount(); ++r) {
      if (t->item(r, 0)->text().startsWith(QStringLiteral("Speedup"))) {
        sawSpeedup = true;
        QCOMPARE(t->item(r, 2)->text(), QStringLiteral("2.00×"));
      }
      if (t->item(r, 0)->text().startsWith(QStringLiteral("mte2"))) {
        sawMte2 = true;
        QCOMPARE(t->item(r, 1)->text(), QStringLiteral("50.0%"));
      }
    }
    QVERIFY(sawSpeedup && sawMte2);
    view.setInline(false);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/diff_view.png")));
  }
};

QTEST_MAIN(DiffViewTest)
#include "DiffViewTest.moc"
