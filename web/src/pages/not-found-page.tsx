import { Link } from 'react-router-dom';
import { usePageTitle } from '../hooks/use-page-title.js';
import './not-found-page.css';

export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <div className="container page-narrow not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1>Page Not Found</h1>
      <p className="muted">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="btn btn-primary">
        Go to Home
      </Link>
    </div>
  );
}
