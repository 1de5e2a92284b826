import { Link } from '@tanstack/react-router';

/** The dashboard's pages: in the top bar on a wide screen, at the head of the session drawer on a phone. */
export function PageLinks() {
  return (
    <>
      <Link to="/" activeOptions={{ exact: true }}>
        Feed
      </Link>
      <Link to="/timeline">Timeline</Link>
      <Link to="/usage">Usage</Link>
      <Link to="/settings">Settings</Link>
      <a href="/graphql" target="_blank" rel="noopener noreferrer">
        GraphiQL
      </a>
    </>
  );
}
