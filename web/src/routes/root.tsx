import { createRootRoute, Link, Outlet } from '@tanstack/react-router';
import { PageLinks } from '../layout/PageLinks';
import { SessionDrawer } from '../layout/SessionDrawer';
import { usePhone } from '../lib/use-phone';
import { NetworkPopover } from '../network/NetworkPopover';
import { SearchBox } from '../search/SearchBox';
import { IndexingProgress } from '../status/IndexingProgress';
import { StatusBanner } from '../status/StatusBanner';
import { TabStrip } from '../tabs/TabStrip';

export const rootRoute = createRootRoute({ component: Layout, notFoundComponent: NotFound });

/** The top bar (with the search), the session list and the page. On a phone the list and the pages' links move into a drawer. */
function Layout() {
  const phone = usePhone();
  return (
    <div className="app">
      <header className="top">
        {phone && <SessionDrawer />}
        <Link to="/" className="brand">
          Loom
        </Link>
        {!phone && <PageLinks />}
        <SearchBox />
        <IndexingProgress />
        <NetworkPopover />
      </header>
      <StatusBanner />
      {!phone && <TabStrip />}
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
