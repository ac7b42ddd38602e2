import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { SpendingChartsProps } from './spending-charts.js';

// Recharts is loaded with the charts, not with the first page.
const SpendingCharts = lazy(() => import('./spending-charts.js'));

class ChartsBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section className="card" role="alert">
        <h2>Spending at a glance</h2>
        <p className="error-text">The charts could not be loaded: {this.state.error.message}</p>
      </section>
    );
  }
}

/** The spending charts, loaded on demand; a failed load says so in place of the charts. */
export function SpendingPanel(props: SpendingChartsProps) {
  return (
    <ChartsBoundary>
      <Suspense
        fallback={
          <section className="card" aria-busy="true">
            <h2>Spending at a glance</h2>
            <p className="muted">Loading charts...</p>
          </section>
        }
      >
        <SpendingCharts {...props} />
      </Suspense>
    </ChartsBoundary>
  );
}
