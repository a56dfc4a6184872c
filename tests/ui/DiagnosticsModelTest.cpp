// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QtTest>

#include <QCheckBox>

#include "ui/DiagnosticsFilterModel.h"
#include "ui/DiagnosticsModel.h"
#include "ui/DiagnosticsPanel.h"

using kwb::Diagnostic;
using kwb::Severity;
using kwb::ui::DiagnosticsFilterModel;
using kwb::ui::DiagnosticsModel;

static Diagnostic diag(const char* source, Severity s, const char* cat, int line, const char* msg) {
  Diagnostic d;
  d.source = source;
  d.severity = s;
  d.category = cat;
  d.file = "kernel.cpp";
  d.line = line;
  d.message = msg;
  return d;
}

class DiagnosticsModelTest : public QObject {
  Q_OBJECT
 private slots:
  void modelPassesTesterAndShowsFields() {
    DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto d =
        diag("emulator", Severity::Error, "misaligned-copy", 44, "length 30 B is not a multiple of 32 B");
    d.api = "DataCopy";
    d.block = 2;
    model.setDiagnostics({d, diag("compiler", Severity::Warning, "compile-error", 7, "unused variable")});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, DiagnosticsModel::CategoryColumn).data().toString(),
             QStringLiteral("misaligned-copy"));
    QCOMPARE(model.index(0, DiagnosticsModel::LocationColumn).data().toString(),
             QStringLiteral("kernel.cpp:44 [block 2]"));
    QCOMPARE(model.index(0, DiagnosticsModel::MessageColumn).data().toString(),
             QStringLiteral("DataCopy: length 30 B is not a multiple of 32 B"));
    QCOMPARE(model.index(1, 0).data(DiagnosticsModel::LineRole).toInt(), 7);
    model.setDiagnostics({});
    QCOMPARE(model.rowCount(), 0);
  }

  void filterBySourceAndSortBySeverityRank() {
    DiagnosticsModel model;
    model.setDiagnostics({diag("verifier", Severity::Error, "wrong-answer", 0, "tail wrong"),
                          diag("compiler", Severity::Note, "compile-error", 3, "note"),
                          diag("compiler", Severity::Fatal, "compile-error", 1, "missing include"),
                          diag("policy", Severity::Error, "policy-violation", 9, "fopen")});
    DiagnosticsFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setVisibleSources({QStringLiteral("compiler")});
    QCOMPARE(filter.rowCount(), 2);
    filter.sort(DiagnosticsModel::SeverityColumn, Qt::DescendingOrder);
    QCOMPARE(filter.index(0, DiagnosticsModel::MessageColumn).data().toString(),
             QStringLiteral("missing include"));
    filter.setVisibleSources({});
    QCOMPARE(filter.rowCount(), 4);
  }

  // Tools report the scratch folder the candidate was compiled in; the engineer knows the file by its
  // name. Neither the table nor its tooltips show /tmp paths.
  void scratchPathsShowAsTheFileName() {
    DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto d = diag("compiler", Severity::Error, "compile-error", 12,
                  "in file included from /tmp/kwb-work-Ab12/0003/kernel.cpp:3: 'x' was not declared");
    d.file = "/tmp/kwb-work-Ab12/0003/kernel.cpp";
    d.notes = {"candidate copied to /tmp/kwb-work-Ab12/0003/add_custom_tiling.h"};
    model.setDiagnostics({d});
    QCOMPARE(model.index(0, DiagnosticsModel::LocationColumn).data().toString(),
             QStringLiteral("kernel.cpp:12"));
    const QString message = model.index(0, DiagnosticsModel::MessageColumn).data().toString();
    QVERIFY2(!message.contains(QStringLiteral("/tmp")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("kernel.cpp:3")), qPrintable(message));
    const QString tip = model.index(0, DiagnosticsModel::MessageColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(!tip.contains(QStringLiteral("/tmp")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("add_custom_tiling.h")), qPrintable(tip));
    QCOMPARE(model.index(0, 0).data(DiagnosticsModel::FileRole).toString(), QStringLiteral("kernel.cpp"));
  }

  // "1 error, 2 warnings", not "1 errors"; a filter that hides rows says so.
  void panelCountsInWordsAndSaysWhatTheFilterHides() {
    kwb::ui::DiagnosticsPanel panel;
    panel.setDiagnostics({diag("compiler", Severity::Error, "compile-error", 1, "missing include"),
                          diag("compiler", Severity::Warning, "compile-error", 2, "unused"),
                          diag("emulator", Severity::Warning, "misaligned-copy", 3, "30 B")});
    QCOMPARE(panel.summaryText(), QStringLiteral("1 error, 2 warnings"));
    panel.setDiagnostics({diag("compiler", Severity::Warning, "compile-error", 2, "unused")});
    QCOMPARE(panel.summaryText(), QStringLiteral("0 errors, 1 warning"));
    panel.setDiagnostics({diag("compiler", Severity::Error, "compile-error", 1, "missing include"),
                          diag("emulator", Severity::Warning, "misaligned-copy", 3, "30 B"),
                          diag("emulator", Severity::Error, "sync", 4, "no barrier")});
    panel.sourceBox(QStringLiteral("emulator"))->setChecked(false);
    QCOMPARE(panel.visibleCount(), 1);
    QVERIFY2(panel.summaryText().contains(QStringLiteral("1 of 3 shown (hidden: emulator)")),
             qPrintable(panel.summaryText()));
    panel.sourceBox(QStringLiteral("emulator"))->setChecked(true);
    QVERIFY2(!panel.summaryText().contains(QStringLiteral("shown")), qPrintable(panel.summaryText()));
  }
};

QTEST_MAIN(DiagnosticsModelTest)
#include "DiagnosticsModelTest.moc"
