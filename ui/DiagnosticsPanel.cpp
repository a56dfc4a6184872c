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
#include "ui/Plural.h"

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
  errors_ = 0;
  warnings_ = 0;
  for (const auto& d : diagnostics) {
    errors_ += d.isError();
    warnings_ += d.severity == Severity::Warning;
  }
  model_->setDiagnostics(std::move(diagnostics));
  table_->resizeColumnsToContents();
  refreshSummary();
}

void DiagnosticsPanel::refreshSummary() {
  const int total = model_->rowCount();
  if (total == 0) {
    summary_->setText(tr("No diagnostics"));
    return;
  }
  QString text = tr("%1, %2").arg(countOf(errors_, tr("error"), tr("errors")),
                                  countOf(warnings_, tr("warning"), tr("warnings")));
  // Unchecked sources hide rows: say how many and which, so an empty table is never a surprise.
  QStringList hidden;
  for (auto* box : sourceBoxes_)
    if (!box->isChecked()) hidden << box->text();
  if (!hidden.isEmpty())
    text += tr(" · %1 of %2 shown (hidden: %3)")
                .arg(visibleCount())
                .arg(total)
                .arg(hidden.join(QStringLiteral(", ")));
  summary_->setText(text);
}

QString DiagnosticsPanel::summaryText() const {
  return summary_->text();
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
  refreshSummary();
}

int DiagnosticsPanel::visibleCount() const {
  return filter_->rowCount();
}

QCheckBox* DiagnosticsPanel::sourceBox(const QString& source) const {
  for (auto* box : sourceBoxes_)
    if (box->property("source").toString() == source) return box;
  return nullptr;
}

}  // namespace kwb::ui
