import type { Page } from 'playwright-core';

// A chat's tool calls as the e2e tests find them: the collapsed widget of a tool, and its body once opened.

/** the collapsed widget of the (one) call of this tool */
export const toolWidget = (page: Page, name: string) => page.locator('.tool').filter({ has: page.locator('.tool-name', { hasText: new RegExp(`^${name}$`) }) });

/** opens a tool's widget and gives its body */
export async function openedTool(page: Page, name: string) {
  const widget = toolWidget(page, name);
  await widget.locator('summary').first().click();
  return widget.locator('.tool-body');
}
