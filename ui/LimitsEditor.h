// SPDX-License-Identifier: MIT
#pragma once
// Editor for an agent session's limits (iteration, token and time budgets, best-of-N, patience,
// target speedup). 0 means "no limit" wherever a limit is optional.

#include <QWidget>

#include "core/model/Session.h"

class QSpinBox;
class QDoubleSpinBox;

namespace kwb::ui {

class LimitsEditor : public QWidget {
  Q_OBJECT
 public:
  explicit LimitsEditor(QWidget* parent = nullptr);
  void setLimits(const SessionLimits& limits);
  SessionLimits limits() const;

 private:
  QSpinBox* maxIterations_;
  QSpinBox* candidates_;
  QSpinBox* patience_;
  QSpinBox* maxTokensK_;
  QDoubleSpinBox* maxMinutes_;
  QDoubleSpinBox* targetSpeedup_;
};

}  // namespace kwb::ui
