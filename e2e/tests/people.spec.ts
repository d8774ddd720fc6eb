import { expect, test } from '@playwright/test';
import { GATEKEEPER, VISITOR } from '../accounts';
import { createImageSet, sessionToken, signIn } from './helpers';

test('an admin gives a group access to a set, disables a member and manages an API key', async ({ browser, request }) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, GATEKEEPER, '/pim/pimgroups');
  const adminToken = await sessionToken(admin);
  const asAdmin = { authorization: `Google ${adminToken}` };

  // A group with a subgroup and a membership.
  const created = await request.post('/api/pim/pimgroups/create', { headers: asAdmin, data: { name: 'E2E Scriptorium Annex' } });
  expect(created.status()).toBe(200);
  await admin.getByRole('link', { name: 'New group' }).click();
  await admin.getByLabel('Name group').fill('E2E Scriptorium');
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Pimgroup is saved successfully!')).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'Group Edit' })).toBeVisible();
  await expect(admin.getByLabel('Name group')).toHaveValue('E2E Scriptorium');

  const children = admin.getByRole('tree');
  await admin.getByRole('textbox', { name: 'Add a subgroup to E2E Scriptorium' }).fill('Annex');
  await admin.getByRole('option', { name: 'E2E Scriptorium Annex' }).click();
  await admin.getByRole('button', { name: 'Add subgroup to E2E Scriptorium' }).click();
  await expect(children.getByText('E2E Scriptorium Annex')).toBeVisible();

  await admin.getByRole('button', { name: 'Add membership to E2E Scriptorium', exact: true }).click();
  const membership = admin.getByRole('dialog', { name: 'Add membership' });
  const add = membership.getByRole('button', { name: 'Add membership' });
  await expect(add).toBeDisabled();
  await membership.getByLabel('User').fill('Vera');
  await admin.getByRole('option', { name: VISITOR.name }).click();
  await expect(add).toBeDisabled();
  await membership.getByRole('textbox', { name: 'Role' }).click();
  await admin.getByRole('option', { name: 'MEMBER' }).click();
  await add.click();
  await expect(membership).toBeHidden();
  await expect(children.getByText(VISITOR.name)).toBeVisible();

  // The group gets READ on a set through the Acl editor.
  const setId = await createImageSet(request, adminToken, 'E2E Shared Letters');
  await admin.goto(`/pim/imageset?uuid=${setId}`);
  await admin.getByRole('button', { name: 'Acl editor' }).click();
  const acl = admin.getByRole('dialog', { name: 'Acl editor' });
  await acl.getByLabel('Group').fill('Scriptorium');
  await admin.getByRole('option', { name: 'E2E Scriptorium', exact: true }).click();
  await acl.getByRole('textbox', { name: 'Role' }).click();
  await admin.getByRole('option', { name: 'MEMBER' }).click();
  await acl.getByRole('textbox', { name: 'Permission' }).click();
  await admin.getByRole('option', { name: 'READ' }).click();
  await acl.getByRole('button', { name: 'Add' }).click();
  await expect(acl.getByRole('table', { name: 'Access control entries' }).getByText('E2E Scriptorium')).toBeVisible();
  await admin.keyboard.press('Escape');
  await expect(acl).toBeHidden();

  // The visitor sees the set but may not delete it.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await signIn(visitor, VISITOR, '/pim/imagesets');
  const visible = visitor.getByRole('table', { name: 'Imagesets' }).getByRole('row', { name: /E2E Shared Letters/ });
  await visible.click();
  await expect(visitor).toHaveURL(new RegExp(`/pim/imageset\\?uuid=${setId}`));
  await expect(visitor.getByRole('heading', { name: 'E2E Shared Letters' })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Delete' })).toBeDisabled();
  // Nor through the API.
  const visitorToken = await sessionToken(visitor);
  const refused = await request.delete(`/api/pim/documentimageset/${setId}`, { headers: { authorization: `Google ${visitorToken}` } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toContain('not delete it: that needs DELETE permission');
  expect((await request.get(`/api/pim/documentimageset/${setId}`, { headers: asAdmin })).status()).toBe(200);

  // The admin disables the visitor; the visitor's next call signs them out.
  await admin.goto('/pim/pimusers');
  // Other specs add accounts too, so the visitor may be past the first page: filter by name.
  await admin.getByRole('button', { name: 'Filter Name' }).click();
  await admin.getByRole('textbox', { name: 'Name contains' }).fill(VISITOR.name);
  await admin.keyboard.press('Escape');
  await admin.getByRole('row', { name: new RegExp(VISITOR.name) }).click();
  await expect(admin.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(VISITOR.name);
  await admin.getByRole('button', { name: 'Disable user' }).click();
  await expect(admin.getByRole('button', { name: 'Enable user' })).toBeVisible();

  await visitor.goto('/pim/imagesets');
  await expect(visitor.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Logout' })).toBeHidden();

  // An API key: created, shown once, used, disabled.
  await admin.goto('/pim/apikeys');
  await admin.getByRole('link', { name: 'New Api key' }).click();
  await expect(admin.getByRole('heading', { name: 'New api Key / new minion' })).toBeVisible();
  await admin.getByLabel('User name').fill('e2e harvester');
  // Mantine's MultiSelect lays its wrapper over the input: open it from the keyboard.
  await admin.getByRole('textbox', { name: 'Roles' }).focus();
  await admin.keyboard.press('ArrowDown');
  await admin.getByRole('option', { name: 'ADMIN' }).click();
  await admin.keyboard.press('Escape');
  await admin.getByRole('button', { name: 'Save' }).click();
  const keyField = admin.getByRole('textbox', { name: 'Api key' });
  await expect(keyField).toHaveValue(/^pim_/);
  const key = await keyField.inputValue();
  await adminContext.grantPermissions(['clipboard-read', 'clipboard-write']);
  await admin.getByRole('button', { name: 'Copy the api key' }).click();
  await expect(admin.getByText('The link has been copied to clipboard.')).toBeVisible();

  const withKey = { authorization: `ApiKey ${key}` };
  const sets = await request.get('/api/pim/documentimageset', { headers: withKey });
  expect(sets.status()).toBe(200);
  expect(((await sets.json()) as { imageset: string }[]).map((s) => s.imageset)).toContain('E2E Shared Letters');

  await admin.goto('/pim/apikeys');
  const row = admin.getByRole('row', { name: /e2e harvester/ });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).not.toContainText(key);
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByRole('button', { name: 'Enable' })).toBeVisible();
  expect((await request.get('/api/pim/documentimageset', { headers: withKey })).status()).toBe(401);

  await visitorContext.close();
  await adminContext.close();
});
