#include "alertevaluator.h"

namespace meridian {

const Alert *AlertsView::find(const std::string &key) const
{
    const auto it = indexByKey.find(key);
    if (it == indexByKey.end())
        return nullptr;
    const Alert &alert = alerts[it->second];
    return alert.firing ? &alert : nullptr;
}

int AlertsView::openCount(const std::string &dataCenter, int64_t nowMs) const
{
    int open = 0;
    for (const Alert &alert : alerts)
        open += alert.firing && alert.dataCenter == dataCenter && alert.open(nowMs);
    return open;
}

AlertEvaluator::AlertEvaluator(QObject *parent)
    : QObject(parent), m_newest(std::make_shared<AlertsView>()), m_view(m_newest)
{}

AlertEvaluator::~AlertEvaluator()
{
    if (m_thread) {
        m_thread->clear();
        m_thread->waitForDone();
    }
}

void AlertEvaluator::runOnItsOwnThread()
{
    if (m_thread)
        return;
    m_thread = std::make_unique<QThreadPool>();
    m_thread->setMaxThreadCount(1);  // one at a time, in the order asked
    m_thread->setExpiryTimeout(-1);
}

void AlertEvaluator::evaluate(std::shared_ptr<const FleetSnapshot> snapshot,
                              std::vector<FleetEvent> events,
                              std::function<void(AlertEngine &)> then)
{
    if (m_thread) {
        const std::lock_guard lock(m_waitingMutex);
        if (m_waiting && m_waitingJob == m_jobsAsked) {
            m_waiting->snapshot = std::move(snapshot);
            m_waiting->then = std::move(then);
            m_waiting->events.insert(m_waiting->events.end(),
                                     std::make_move_iterator(events.begin()),
                                     std::make_move_iterator(events.end()));
            return;
        }
        auto evaluation = std::make_shared<Evaluation>(
            Evaluation{std::move(snapshot), std::move(events), std::move(then)});
        m_waiting = evaluation;
        m_waitingJob = m_jobsAsked + 1;
        submit([this, evaluation](AlertEngine &engine) {
            {
                const std::lock_guard lock(m_waitingMutex);
                if (m_waiting == evaluation)
                    m_waiting.reset();  // begun: nothing joins it any more
            }
            engine.evaluate(*evaluation->snapshot, evaluation->events);
            if (evaluation->then)
                evaluation->then(engine);
        });
        return;
    }
    submit([&](AlertEngine &engine) {
        engine.evaluate(*snapshot, events);
        if (then)
            then(engine);
    });
}

void AlertEvaluator::change(std::function<void(AlertEngine &)> job)
{
    submit(std::move(job));
}

void AlertEvaluator::submit(std::function<void(AlertEngine &)> job)
{
    ++m_jobsAsked;
    if (!m_thread) {
        job(m_engine);
        makeView();
        takeNewest();
        return;
    }
    m_thread->start([this, job = std::move(job)] {
        job(m_engine);
        makeView();
        QMetaObject::invokeMethod(this, &AlertEvaluator::takeNewest, Qt::QueuedConnection);
    });
}

void AlertEvaluator::makeView()
{
    auto view = std::make_shared<AlertsView>();
    view->sequence = ++m_jobsRun;
    view->alerts = m_engine.alerts();
    for (size_t i = 0; i < view->alerts.size(); ++i)
        view->indexByKey.emplace(view->alerts[i].key, i);
    view->pendingKeys = m_engine.pendingKeys();
    view->pending = static_cast<int>(view->pendingKeys.size());
    view->fleetJudged = m_engine.fleetJudged();
    view->holdingStaleness = m_engine.holdingStaleness();
    const std::lock_guard lock(m_newestMutex);
    m_newest = std::move(view);
}

void AlertEvaluator::takeNewest()
{
    {
        const std::lock_guard lock(m_newestMutex);
        if (m_newest->sequence <= m_view->sequence)
            return;  // taken already: views queued behind a newer one say nothing new
        m_view = m_newest;
    }
    Q_EMIT published();
}

void AlertEvaluator::waitForDone()
{
    if (m_thread)
        m_thread->waitForDone();
    takeNewest();
}

}  // namespace meridian
