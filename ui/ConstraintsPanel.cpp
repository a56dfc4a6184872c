// SPDX-License-Identifier: MIT
#include "ui/ConstraintsPanel.h"
#include "ui/Plural.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <map>

namespace kwb::ui {

ConstraintsPanel::ConstraintsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  list_ = new QListWidget(this);
  list_->setWordWrap(true);
  layout->addWidget(list_, 1);
  auto* ruleRow = new QHBoxLayout;
  rule_ = new QLineEdit(this);
  rule_->setPlaceholderText(tr("Rule for the agent, e.g. \"keep BUFFER_NUM = 2\""));
  auto* addRule = new QPushButton(tr("Pin rule"), this);
  ruleRow->addWidget(rule_, 1);
  ruleRow->addWidget(addRule);
  layout->addLayout(ruleRow);
  auto* paramRow = new QHBoxLayout;
  param_ = new QLineEdit(this);
  param_->setPlaceholderText(tr("Fix a parameter: NAME=VALUE, e.g. TILE_LENGTH=2048"));
  auto* fix = new QPushButton(tr("Fix"), this);
  paramRow->addWidget(param_, 1);
  paramRow->addWidget(fix);
  layout->addLayout(paramRow);
  auto* actions = new QHBoxLayout;
  lock_ = new QPushButton(tr("Lock selected lines"), this);
  lock_->setToolTip(
      tr("The agent may not change the selected lines of the kernel; a candidate that does is rejected"));
  auto* remove = new QPushButton(tr("Unpin"), this);
  actions->addWidget(lock_);
  actions->addStretch(1);
  actions->addWidget(remove);
  layout->addLayout(actions);

  connect(addRule, &QPushButton::clicked, this, [this] {
    const QString text = rule_->text().trimmed();
    if (text.isEmpty()) return;
    emit addRuleRequested(text);
    rule_->clear();
  });
  connect(rule_, &QLineEdit::returnPressed, addRule, &QPushButton::click);
  connect(fix, &QPushButton::clicked, this, [this] {
    const QString text = param_->text().trimmed();
    const int eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0 || eq == text.size() - 1) {
      param_->setToolTip(tr("Write NAME=VALUE"));
      param_->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #d33; }"));
      return;
    }
    param_->setStyleSheet({});
    emit fixParameterRequested(text.left(eq).trimmed(), text.mid(eq + 1).trimmed());
    param_->clear();
  });
  connect(param_, &QLineEdit::returnPressed, fix, &QPushButton::click);
  connect(lock_, &QPushButton::clicked, this, &ConstraintsPanel::lockSelectionRequested);
  connect(remove, &QPushButton::clicked, this, [this] {
    if (auto* item = list_->currentItem()) emit removeRequested(item->data(Qt::UserRole).toInt());
  });
}

void ConstraintsPanel::setConstraints(const std::vector<Constraint>& constraints,
                                      const std::map<int, int>& rejections) {
  list_->clear();
  for (const auto& c : constraints) {
    QString text = QString::fromStdString(c.describe());
    if (auto it = rejections.find(c.id); it != rejections.end() && it->second > 0)
      text += tr("\n    rejected %1").arg(countOf(it->second, tr("candidate"), tr("candidates")));
    auto* item = new QListWidgetItem(text, list_);
    item->setData(Qt::UserRole, c.id);
  }
  if (constraints.empty()) {
    auto* item =
        new QListWidgetItem(tr("No pinned constraints. Pin a rule, lock lines or fix a parameter."), list_);
    item->setFlags(Qt::NoItemFlags);
  }
}

QString ConstraintsPanel::itemText(int row) const {
  const QListWidgetItem* item = list_->item(row);
  return item ? item->text() : QString();
}

int ConstraintsPanel::count() const {
  int n = 0;
  for (int i = 0; i < list_->count(); ++i) n += list_->item(i)->flags() != Qt::NoItemFlags;
  return n;
}

}  // namespace kwb::ui
