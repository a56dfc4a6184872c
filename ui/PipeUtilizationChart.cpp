// SPDX-License-Identifier: MIT
#include "ui/PipeUtilizationChart.h"

#include "ui/CodeTheme.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QValueAxis>

namespace kwb::ui {

PipeUtilizationChart::PipeUtilizationChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  rebuild(nullptr);
}

void PipeUtilizationChart::setProfile(const ProfileReport& profile) {
  rebuild(&profile);
}
void PipeUtilizationChart::clearProfile() {
  rebuild(nullptr);
}
QStringList PipeUtilizationChart::pipeNames() const {
  return names_;
}

void PipeUtilizationChart::rebuild(const ProfileReport* profile) {
  auto* chart = new QChart;
  chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->legend()->hide();
  names_.clear();
  if (!profile || profile->pipes.empty()) {
    chart->setTitle(tr("Pipe utilisation: no profile for this iteration"));
    setChart(chart);
    return;
  }
  const QString where =
      profile->source == "emulator-model" ? tr("emulator estimate") : QString::fromStdString(profile->source);
  chart->setTitle(tr("Pipe utilisation (%1, %2) — bound: %3")
                      .arg(QString::fromStdString(profile->soc), where,
                           profile->bound.empty() ? tr("unknown") : QString::fromStdString(profile->bound)));
  auto* set = new QBarSet(tr("busy"));
  for (const auto& [name, stat] : profile->pipes) {
    names_ << QString::fromStdString(name);
    *set << stat.ratio * 100.0;
  }
  auto* series = new QHorizontalBarSeries;
  series->append(set);
  series->setLabelsVisible(true);
  series->setLabelsFormat(QStringLiteral("@value%"));
  series->setLabelsPrecision(3);
  series->setLabelsPosition(QAbstractBarSeries::LabelsInsideBase);
  chart->addSeries(series);
  auto* cats = new QBarCategoryAxis;
  cats->append(names_);
  auto* values = new QValueAxis;
  values->setRange(0, 100);
  values->setTickCount(6);
  values->setLabelFormat(QStringLiteral("%d"));
  values->setTitleText(tr("% of kernel time"));
  chart->addAxis(cats, Qt::AlignLeft);
  chart->addAxis(values, Qt::AlignBottom);
  series->attachAxis(cats);
  series->attachAxis(values);
  setChart(chart);
}

}  // namespace kwb::ui
