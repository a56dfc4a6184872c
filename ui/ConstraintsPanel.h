// SPDX-License-Identifier: MIT
#pragma once
// Pinned constraints of the session: text rules, locked source regions and fixed parameters, with
// what each one did (rejections it caused). Editing emits requests; the owner applies them.

#include <QWidget>
#include <vector>

#include "core/model/Constraint.h"

class QListWidget;
class QLineEdit;
class QPushButton;

namespace kwb::ui {

class ConstraintsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ConstraintsPanel(QWidget* parent = nullptr);
  // `rejections[id]` = how many iterations this constraint rejected.
  void setConstraints(const std::vector<Constraint>& constraints, const std::map<int, int>& rejections = {});
  int count() const;
  // The text shown for row `row` (the constraint and its rejections), empty past the end.
  QString itemText(int row) const;
  QPushButton* lockButton() const { return lock_; }

 signals:
  void addRuleRequested(const QString& rule);
  void lockSelectionRequested();
  void fixParameterRequested(const QString& name, const QString& value);
  void removeRequested(int constraintId);

 private:
  QListWidget* list_;
  QLineEdit* rule_;
  QLineEdit* param_;
  QPushButton* lock_;
};

}  // namespace kwb::ui
