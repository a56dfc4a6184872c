// SPDX-License-Identifier: MIT
#pragma once
// Per-pipe busy ratio of one iteration's profile, as horizontal bars, with the bound pipe called out.

#include <QtCharts/QChartView>

#include "core/model/ProfileReport.h"

namespace kwb::ui {

class PipeUtilizationChart : public QChartView {
  Q_OBJECT
 public:
  explicit PipeUtilizationChart(QWidget* parent = nullptr);
  void setProfile(const ProfileReport& profile);
  void clearProfile();
  QStringList pipeNames() const;

 private:
  void rebuild(const ProfileReport* profile);
  QStringList names_;
};

}  // namespace kwb::ui
