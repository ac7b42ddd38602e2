import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';

class LoadBoundary extends Component<{ what: string; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) {
      return (
        <div className="container page-narrow" role="alert">
          <h1>Error loading {this.props.what}</h1>
          <p className="error-text">{this.state.error.message}</p>
          <button type="button" className="btn btn-outline" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}

/** A page loaded on demand; a failed load shows "Error loading {what}" and the error (spec §2). */
export function lazyPage(what: string, load: () => Promise<{ default: ComponentType }>): ComponentType {
  const Page = lazy(load);
  return function LazyPage() {
    return (
      <LoadBoundary what={what}>
        <Suspense fallback={<div className="container page-loading" aria-busy="true">Loading {what}...</div>}>
          <Page />
        </Suspense>
      </LoadBoundary>
    );
  };
}
