// The action hook's name before 0.4: settings.json written by an older `loom hooks install` still
// runs this file. It is the same hook (same arguments); `loom hooks install` points them at the new name.
import './loom-action-hook.mjs';
