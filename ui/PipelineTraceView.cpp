// SPDX-License-Identifier: MIT
#include "ui/PipelineTraceView.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace kwb::ui {
namespace {

constexpr int kRowHeight = 18;
constexpr int kAxisHeight = 22;

QColor colourFor(const std::string& api) {
  // Stable per API name, so DataCopy is the same colour in every trace and iteration.
  const size_t h = std::hash<std::string>{}(api);
  return QColor::fromHsv(int(h % 360), 110 + int((h >> 9) % 60), 200 + int((h >> 17) % 40));
}

QString fmtUs(double us) {
  if (us >= 1000) return QStringLiteral("%1 ms").arg(us / 1000, 0, 'f', 3);
  if (us >= 1) return QStringLiteral("%1 µs").arg(us, 0, 'f', 3);
  return QStringLiteral("%1 ns").arg(us * 1000, 0, 'f', 1);
}

}  // namespace

PipelineTraceView::PipelineTraceView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumHeight(120);
}

QSize PipelineTraceView::sizeHint() const {
  return {800, kAxisHeight + std::max<int>(6, int(rows_.size())) * kRowHeight + 4};
}

void PipelineTraceView::setTrace(PipelineTrace trace) {
  trace_ = std::move(trace);
  rebuildRows();
  resetZoom();
  updateGeometry();
}

void PipelineTraceView::clearTrace() {
  setTrace({});
}

void PipelineTraceView::rebuildRows() {
  rows_.clear();
  for (int p = 0; p < int(trace_.processes.size()); ++p) {
    rows_.push_back({p, -1});
    for (int l = 0; l < int(trace_.processes[size_t(p)].lanes.size()); ++l) rows_.push_back({p, l});
  }
}

void PipelineTraceView::resetZoom() {
  const double span = std::max(1e-3, trace_.endUs - trace_.beginUs);
  setVisibleRange(trace_.beginUs, trace_.beginUs + span);
}

void PipelineTraceView::setVisibleRange(double beginUs, double endUs) {
  if (!(endUs > beginUs)) endUs = beginUs + 1e-3;
  t0_ = beginUs;
  t1_ = endUs;
  update();
}

void PipelineTraceView::zoom(double factor, double anchorUs) {
  const double span =
      std::clamp((t1_ - t0_) / factor, 1e-4, std::max(1e-3, (trace_.endUs - trace_.beginUs) * 4));
  const double frac = (anchorUs - t0_) / (t1_ - t0_);
  const double b = anchorUs - frac * span;
  setVisibleRange(b, b + span);
}

double PipelineTraceView::xToUs(double x) const {
  const double w = std::max(1, width() - plotLeft() - 4);
  return t0_ + (x - plotLeft()) / w * (t1_ - t0_);
}

double PipelineTraceView::usToX(double us) const {
  const double w = std::max(1, width() - plotLeft() - 4);
  return plotLeft() + (us - t0_) / (t1_ - t0_) * w;
}

const TraceSlice* PipelineTraceView::sliceAt(const QPoint& pos, QString* laneLabel) const {
  const int r = (pos.y() - kAxisHeight) / kRowHeight;
  if (pos.y() < kAxisHeight || r < 0 || r >= int(rows_.size()) || pos.x() < plotLeft()) return nullptr;
  const Row& row = rows_[size_t(r)];
  if (row.lane < 0) return nullptr;
  const auto& proc = trace_.processes[size_t(row.process)];
  const auto& lane = proc.lanes[size_t(row.lane)];
  // Accept slices within 2 px so that very thin instructions can still be hovered.
  const double tol = 2.0 * (t1_ - t0_) / std::max(1, width() - plotLeft());
  const double t = xToUs(pos.x());
  auto it = std::lower_bound(lane.slices.begin(), lane.slices.end(), t - tol,
                             [](const TraceSlice& s, double v) { return s.startUs + s.durUs < v; });
  const TraceSlice* best = nullptr;
  for (; it != lane.slices.end() && it->startUs <= t + tol; ++it) {
    if (!best || std::abs(it->startUs + it->durUs / 2 - t) < std::abs(best->startUs + best->durUs / 2 - t))
      best = &*it;
  }
  if (best && laneLabel) *laneLabel = QString::fromStdString(proc.name + " · " + lane.name);
  return best;
}

void PipelineTraceView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QPalette pal = palette();
  p.fillRect(rect(), pal.color(QPalette::Base));
  if (rows_.empty()) {
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("No pipeline trace for this iteration"));
    return;
  }
  // Time axis with "nice" tick spacing.
  const double span = t1_ - t0_;
  const double raw = span / std::max(2, (width() - plotLeft()) / 90);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  p.setPen(pal.color(QPalette::Mid));
  for (double t = std::ceil(t0_ / step) * step; t <= t1_; t += step) {
    const int x = int(usToX(t));
    p.drawLine(x, kAxisHeight - 4, x, height());
    p.setPen(pal.color(QPalette::Text));
    p.drawText(x + 3, kAxisHeight - 6, fmtUs(t));
    p.setPen(pal.color(QPalette::Midlight));
  }
  const int plotRight = width() - 4;
  for (int r = 0; r < int(rows_.size()); ++r) {
    const int y = kAxisHeight + r * kRowHeight;
    if (y > height()) break;
    const Row& row = rows_[size_t(r)];
    const auto& proc = trace_.processes[size_t(row.process)];
    if (row.lane < 0) {
      p.fillRect(0, y, width(), kRowHeight, pal.color(QPalette::AlternateBase));
      QFont f = font();
      f.setBold(true);
      p.setFont(f);
      p.setPen(pal.color(QPalette::Text));
      p.drawText(QRect(4, y, width(), kRowHeight), Qt::AlignVCenter, QString::fromStdString(proc.name));
      p.setFont(font());
      continue;
    }
    const auto& lane = proc.lanes[size_t(row.lane)];
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(16, y, plotLeft() - 20, kRowHeight), Qt::AlignVCenter,
               QString::fromStdString(lane.name));
    auto it = std::lower_bound(lane.slices.begin(), lane.slices.end(), t0_,
                               [](const TraceSlice& s, double v) { return s.startUs + s.durUs < v; });
    // Thin neighbouring slices are merged into one box per pixel column to keep huge traces fast.
    double pendingL = -1, pendingR = -1;
    QColor pendingC;
    auto flush = [&] {
      if (pendingL < 0) return;
      p.fillRect(QRectF(pendingL, y + 2, std::max(1.0, pendingR - pendingL), kRowHeight - 4), pendingC);
      pendingL = -1;
    };
    for (; it != lane.slices.end() && it->startUs <= t1_; ++it) {
      const double l = std::max<double>(plotLeft(), usToX(it->startUs));
      const double rgt = std::min<double>(plotRight, usToX(it->startUs + it->durUs));
      const QColor c = colourFor(it->name);
      if (pendingL >= 0 && l - pendingR < 1.0 && (rgt - l < 3.0 || pendingR - pendingL < 3.0)) {
        pendingR = std::max(pendingR, rgt);
        continue;
      }
      flush();
      pendingL = l;
      pendingR = rgt;
      pendingC = c;
      if (rgt - l > 40) {
        flush();
        p.setPen(c.darker(160));
        p.drawRect(QRectF(l, y + 2, rgt - l, kRowHeight - 4));
        p.setPen(Qt::black);
        p.drawText(
            QRectF(l + 3, y, rgt - l - 6, kRowHeight), Qt::AlignVCenter,
            p.fontMetrics().elidedText(QString::fromStdString(it->name), Qt::ElideRight, int(rgt - l - 6)));
      }
    }
    flush();
  }
  p.setPen(pal.color(QPalette::Mid));
  p.drawLine(plotLeft() - 2, kAxisHeight, plotLeft() - 2, height());
}

void PipelineTraceView::wheelEvent(QWheelEvent* e) {
  if (!(e->modifiers() & Qt::ControlModifier)) {
    e->ignore();  // let an enclosing scroll area scroll vertically
    return;
  }
  const double factor = e->angleDelta().y() > 0 ? 1.25 : 0.8;
  zoom(factor, xToUs(e->position().x()));
  e->accept();
}

void PipelineTraceView::mousePressEvent(QMouseEvent* e) {
  if (e->button() == Qt::LeftButton) {
    dragStart_ = e->pos();
    dragT0_ = t0_;
    dragT1_ = t1_;
  }
}

void PipelineTraceView::mouseMoveEvent(QMouseEvent* e) {
  if (dragStart_) {
    const double w = std::max(1, width() - plotLeft() - 4);
    const double dt = (e->pos().x() - dragStart_->x()) / w * (dragT1_ - dragT0_);
    setVisibleRange(dragT0_ - dt, dragT1_ - dt);
  }
}

void PipelineTraceView::mouseReleaseEvent(QMouseEvent*) {
  dragStart_.reset();
}

void PipelineTraceView::mouseDoubleClickEvent(QMouseEvent* e) {
  if (const TraceSlice* s = sliceAt(e->pos()); s && !s->source.empty())
    emit sourceActivated(QString::fromStdString(s->source));
}

void PipelineTraceView::keyPressEvent(QKeyEvent* e) {
  const double mid = (t0_ + t1_) / 2;
  switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoom(1.5, mid);
      break;
    case Qt::Key_Minus:
      zoom(1 / 1.5, mid);
      break;
    case Qt::Key_0:
      resetZoom();
      break;
    case Qt::Key_Left:
      setVisibleRange(t0_ - (t1_ - t0_) * 0.1, t1_ - (t1_ - t0_) * 0.1);
      break;
    case Qt::Key_Right:
      setVisibleRange(t0_ + (t1_ - t0_) * 0.1, t1_ + (t1_ - t0_) * 0.1);
      break;
    default:
      QWidget::keyPressEvent(e);
  }
}

bool PipelineTraceView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    QString lane;
    if (const TraceSlice* s = sliceAt(he->pos(), &lane)) {
      QString tip = QStringLiteral("<b>%1</b><br>%2<br>start %3, duration %4")
                        .arg(QString::fromStdString(s->name).toHtmlEscaped(), lane.toHtmlEscaped(),
                             fmtUs(s->startUs), fmtUs(s->durUs));
      if (!s->source.empty())
        tip += QStringLiteral("<br>source: %1").arg(QString::fromStdString(s->source).toHtmlEscaped());
      if (!s->detail.empty())
        tip += QStringLiteral("<br>%1").arg(QString::fromStdString(s->detail).toHtmlEscaped());
      QToolTip::showText(he->globalPos(), tip, this);
    } else {
      QToolTip::hideText();
      e->ignore();
    }
    return true;
  }
  return QWidget::event(e);
}

}  // namespace kwb::ui
