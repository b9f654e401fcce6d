-- Drives `rulebook lsp` through Neovim's own LSP client (Neovim 0.7+ API),
-- for tests/lsp_neovim.rs, which prepares the files and reads the answers.
--
-- Environment (set by the Rust test):
--   RULEBOOK_BIN  the `rulebook` binary to start as `RULEBOOK_BIN lsp`
--   RULEBOOK_DIR  a folder holding chess.rules (a copy of rules/chess.rules
--                 with `Knight` misspelt `Knigt` in the promotion),
--                 child.rules (extends chess.rules) and messy.rules (chess
--                 badly indented)
--   RULEBOOK_OUT  where to write every answer, as one JSON object
--
-- Run as `nvim --headless --clean -c "luafile tests/data/lsp_neovim.lua"`.
-- Whatever happens (an error included), the answers gathered so far and
-- the error are written to RULEBOOK_OUT and Neovim quits.

local bin = os.getenv('RULEBOOK_BIN')
local dir = os.getenv('RULEBOOK_DIR')
local out_path = os.getenv('RULEBOOK_OUT')

--- Every answer, by step; written as JSON at the end.
local out = { nvim = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch, steps = {} }

--- Records that `step` was reached (so a failure says how far it got).
local function step(name)
  table.insert(out.steps, name)
end

--- Opens `path` in the current window; its buffer number (filetype `rules`,
--- which Neovim sends as the document's languageId).
local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_option(bufnr, 'filetype', 'rules')
  return bufnr
end

--- The first (1-based) line of `bufnr` matching the Lua pattern `pat`, or
--- an error naming the pattern.
local function find_line(bufnr, pat)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:find(pat) then
      return i, line
    end
  end
  error('no line matches ' .. pat)
end

--- The diagnostics Neovim holds for `bufnr`, as plain tables.
local function diagnostics(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(list, { lnum = d.lnum, col = d.col, code = d.code, message = d.message, severity = d.severity })
  end
  return list
end

--- Waits up to `ms` for `cond`; true when it held.
local function wait(ms, cond)
  return vim.wait(ms, cond, 20) == true
end

--- Set once the server has exited (its exit code and signal).
local exited = nil

--- Waits up to `ms` for `cond`, or until the server has exited; true when
--- `cond` held.
local function wait_server(ms, cond)
  return vim.wait(ms, function()
    return exited ~= nil or cond()
  end, 20) == true and cond()
end

--- The test proper: every answer goes into `out`.
local function run()
  assert(bin and dir, 'RULEBOOK_BIN and RULEBOOK_DIR must be set')
  local client_id = vim.lsp.start_client({
    name = 'rulebook',
    cmd = { bin, 'lsp' },
    root_dir = dir,
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  })
  assert(client_id, 'vim.lsp.start_client returned nil')
  out.client_id = client_id
  local client = vim.lsp.get_client_by_id(client_id)
  step('started')

  -- Diagnostics on open: the misspelt promotion target.
  local parent = open(dir .. '/chess.rules')
  vim.lsp.buf_attach_client(parent, client_id)
  out.initialized = wait_server(20000, function()
    return client.initialized == true
  end)
  out.hover_provider = client.server_capabilities ~= nil and client.server_capabilities.hoverProvider == true
  out.diagnostics_arrived = wait_server(20000, function()
    return #vim.diagnostic.get(parent) > 0
  end)
  out.diagnostics = diagnostics(parent)
  step('diagnostics')

  -- Fix it in the buffer (Neovim sends didChange): the diagnostics go.
  local row, line = find_line(parent, 'Knigt')
  vim.api.nvim_buf_set_lines(parent, row - 1, row, false, { (line:gsub('Knigt', 'Knight')) })
  out.diagnostics_cleared = wait_server(20000, function()
    return #vim.diagnostic.get(parent) == 0
  end)
  out.diagnostics_after_fix = diagnostics(parent)
  step('fixed')

  -- Hover on `Rook` in `piece Rook R {`, the cursor on its `o`.
  row = find_line(parent, '^piece Rook R')
  vim.api.nvim_win_set_cursor(0, { row, 7 })
  local hover, err = client.request_sync('textDocument/hover', vim.lsp.util.make_position_params(), 10000, parent)
  out.hover = hover and hover.result or { error = tostring(err or (hover and hover.err and hover.err.message)) }
  out.rook_line = row - 1
  step('hover')

  -- The child: definition of `Knight` (defined in chess.rules).
  local child = open(dir .. '/child.rules')
  vim.lsp.buf_attach_client(child, client_id)
  row = find_line(child, 'Knight')
  local col = vim.api.nvim_buf_get_lines(child, row - 1, row, false)[1]:find('Knight') - 1
  vim.api.nvim_win_set_cursor(0, { row, col + 2 })
  local def
  def, err = client.request_sync('textDocument/definition', vim.lsp.util.make_position_params(), 10000, child)
  out.definition = def and def.result or { error = tostring(err or (def and def.err and def.err.message)) }
  -- The same through the editor's command, which jumps there.
  vim.lsp.buf.definition()
  out.jumped = wait(10000, function()
    return vim.api.nvim_get_current_buf() ~= child
  end)
  out.jump = { file = vim.api.nvim_buf_get_name(0), cursor = vim.api.nvim_win_get_cursor(0) }
  step('definition')

  -- Completion inside a new piece's block in the child, after `  ro`.
  vim.api.nvim_set_current_buf(child)
  local n = vim.api.nvim_buf_line_count(child)
  vim.api.nvim_buf_set_lines(child, n, n, false, { 'piece Camel C {', '  ro', '}' })
  -- Past the line's end, where the cursor stands in insert mode after typing
  -- `ro` (normal mode cannot put it there), so the position is written out.
  local params = { textDocument = { uri = vim.uri_from_bufnr(child) }, position = { line = n + 1, character = 4 } }
  local completion
  completion, err = client.request_sync('textDocument/completion', params, 10000, child)
  local labels = {}
  if completion and completion.result then
    local items = completion.result.items or completion.result
    for _, item in ipairs(items) do
      table.insert(labels, item.label)
    end
  else
    out.completion_error = tostring(err or (completion and completion.err and completion.err.message))
  end
  out.completion = labels
  step('completion')

  -- Formatting a badly indented buffer; the edits applied by Neovim.
  local messy = open(dir .. '/messy.rules')
  vim.lsp.buf_attach_client(messy, client_id)
  local fmt
  fmt, err = client.request_sync('textDocument/formatting', vim.lsp.util.make_formatting_params({ tabSize = 2, insertSpaces = true }), 10000, messy)
  if fmt and fmt.result then
    out.formatting_edits = #fmt.result
    vim.lsp.util.apply_text_edits(fmt.result, messy, 'utf-16')
  else
    out.formatting_error = tostring(err or (fmt and fmt.err and fmt.err.message))
  end
  out.formatted = table.concat(vim.api.nvim_buf_get_lines(messy, 0, -1, false), '\n') .. '\n'
  step('formatting')

  -- Shutdown and exit, as when the editor quits.
  vim.lsp.stop_client(client_id)
  wait(10000, function()
    return exited ~= nil
  end)
  out.exit = exited
  step('stopped')
end

local ok, err = pcall(run)
if not ok then
  out.error = tostring(err)
end
if exited and out.exit == nil then
  out.exit = exited
end
if out_path then
  vim.fn.writefile({ vim.fn.json_encode(out) }, out_path)
  vim.cmd('qa!')
else
  io.stderr:write('lsp_neovim.lua: RULEBOOK_OUT is not set; ' .. tostring(out.error) .. '\n')
  vim.cmd('cquit 2')
end
