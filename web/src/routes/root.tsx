import { createRootRoute, Link, Outlet } from '@tanstack/react-router';
import { NetworkPopover } from '../network/NetworkPopover';
import { IndexingProgress } from '../status/IndexingProgress';
import { StatusBanner } from '../status/StatusBanner';
import { TabStrip } from '../tabs/TabStrip';

export const rootRoute = createRootRoute({ component: Layout, notFoundComponent: NotFound });

function Layout() {
  return (
    <div className="app">
      <header className="top">
        <Link to="/" className="brand">
          Loom
        </Link>
        <Link to="/" activeOptions={{ exact: true }}>
          Feed
        </Link>
        <Link to="/timeline">Timeline</Link>
        <Link to="/usage">Usage</Link>
        <Link to="/settings">Settings</Link>
        <a href="/graphql" target="_blank" rel="noopener noreferrer">
          GraphiQL
        </a>
        <IndexingProgress />
        <NetworkPopover />
      </header>
      <StatusBanner />
      <TabStrip />
      <main className="pane">
        <Outlet />
      </main>
    </div>
  );
}

function NotFound() {
  return (
    <div className="empty">
      Nothing here. <Link to="/">Back to the feed</Link>
    </div>
  );
}
