// SPDX-License-Identifier: MIT
#include "ui/DiagnosticsPanel.h"
#include "ui/StyleStatusIcons.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/DiagnosticsFilterModel.h"
#include "ui/DiagnosticsModel.h"

namespace kwb::ui {

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent) : QWidget(parent) {
  model_ = new DiagnosticsModel(this);
  model_->setIcons(styleStatusIcons());
  filter_ = new DiagnosticsFilterModel(this);
  filter_->setSourceModel(model_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  summary_ = new QLabel(this);
  bar->addWidget(summary_, 1);
  for (const char* src : {"compiler", "emulator", "runtime", "verifier", "sandbox", "policy", "agent"}) {
    auto* box = new QCheckBox(QString::fromLatin1(src), this);
    box->setChecked(true);
    box->setProperty("source", QString::fromLatin1(src));
    connect(box, &QCheckBox::toggled, this, &DiagnosticsPanel::applyFilter);
    sourceBoxes_.push_back(box);
    bar->addWidget(box);
  }
  layout->addLayout(bar);
  table_ = new QTableView(this);
  table_->setModel(filter_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(DiagnosticsModel::SeverityColumn, Qt::DescendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  layout->addWidget(table_);
  connect(table_, &QTableView::activated, this, [this](const QModelIndex& idx) {
    const QModelIndex src = filter_->mapToSource(idx);
    if (const Diagnostic* d = model_->diagnosticAt(src.row()))
      emit jumpRequested(QString::fromStdString(d->file), d->line, d->column);
  });
  applyFilter();
}

void DiagnosticsPanel::setDiagnostics(std::vector<Diagnostic> diagnostics) {
  int errors = 0, warnings = 0;
  for (const auto& d : diagnostics) {
    errors += d.isError();
    warnings += d.severity == Severity::Warning;
  }
  model_->setDiagnostics(std::move(diagnostics));
  table_->resizeColumnsToContents();
  summary_->setText(model_->rowCount() == 0 ? tr("No diagnostics")
                                            : tr("%1 errors, %2 warnings").arg(errors).arg(warnings));
}

void DiagnosticsPanel::applyFilter() {
  QSet<QString> visible;
  bool all = true;
  for (auto* box : sourceBoxes_) {
    if (box->isChecked())
      visible.insert(box->property("source").toString());
    else
      all = false;
  }
  filter_->setVisibleSources(all ? QSet<QString>() : visible);
}

int DiagnosticsPanel::visibleCount() const {
  return filter_->rowCount();
}

}  // namespace kwb::ui
