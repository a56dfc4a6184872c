// SPDX-License-Identifier: MIT
#include "ui/LimitsEditor.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace kwb::ui {

LimitsEditor::LimitsEditor(QWidget* parent) : QWidget(parent) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  auto spin = [this](int lo, int hi, const QString& none, const QString& suffix = {}) {
    auto* b = new QSpinBox(this);
    b->setRange(lo, hi);
    if (!none.isEmpty()) b->setSpecialValueText(none);
    b->setSuffix(suffix);
    return b;
  };
  maxIterations_ = spin(0, 10000, tr("no limit"));
  candidates_ = spin(1, 16, {});
  patience_ = spin(0, 1000, tr("no limit"), tr(" rounds"));
  maxTokensK_ = spin(0, 100000, tr("no limit"), tr(" k tokens"));
  maxMinutes_ = new QDoubleSpinBox(this);
  maxMinutes_->setRange(0, 10000);
  maxMinutes_->setDecimals(1);
  maxMinutes_->setSuffix(tr(" min"));
  maxMinutes_->setSpecialValueText(tr("no limit"));
  targetSpeedup_ = new QDoubleSpinBox(this);
  targetSpeedup_->setRange(0, 1000);
  targetSpeedup_->setDecimals(2);
  targetSpeedup_->setSuffix(QStringLiteral("×"));
  targetSpeedup_->setSpecialValueText(tr("none (optimise until patience runs out)"));
  form->addRow(tr("Iterations"), maxIterations_);
  form->addRow(tr("Candidates per round"), candidates_);
  form->addRow(tr("Patience"), patience_);
  form->addRow(tr("Token budget"), maxTokensK_);
  form->addRow(tr("Time budget"), maxMinutes_);
  form->addRow(tr("Target speedup"), targetSpeedup_);
  candidates_->setToolTip(tr("Best-of-N: candidates generated and evaluated in parallel each round"));
  patience_->setToolTip(tr("Stop after this many rounds without a faster passing candidate"));
  targetSpeedup_->setToolTip(
      tr("Stop optimising once a candidate is this much faster than the task's baseline"));
}

void LimitsEditor::setLimits(const SessionLimits& l) {
  maxIterations_->setValue(l.maxIterations.value_or(0));
  candidates_->setValue(l.candidatesPerRound);
  patience_->setValue(l.patience.value_or(0));
  maxTokensK_->setValue(int(l.maxTokens.value_or(0) / 1000));
  maxMinutes_->setValue(l.maxSeconds.value_or(0.0) / 60.0);
  targetSpeedup_->setValue(l.targetSpeedup.value_or(0.0));
}

SessionLimits LimitsEditor::limits() const {
  SessionLimits l;
  if (maxIterations_->value() > 0) l.maxIterations = maxIterations_->value();
  l.candidatesPerRound = candidates_->value();
  if (patience_->value() > 0) l.patience = patience_->value();
  if (maxTokensK_->value() > 0) l.maxTokens = std::int64_t(maxTokensK_->value()) * 1000;
  if (maxMinutes_->value() > 0) l.maxSeconds = maxMinutes_->value() * 60.0;
  if (targetSpeedup_->value() > 0) l.targetSpeedup = targetSpeedup_->value();
  return l;
}

}  // namespace kwb::ui
