// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QtTest>

#include "ui/DiagnosticsFilterModel.h"
#include "ui/DiagnosticsModel.h"

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
};

QTEST_MAIN(DiagnosticsModelTest)
#include "DiagnosticsModelTest.moc"
