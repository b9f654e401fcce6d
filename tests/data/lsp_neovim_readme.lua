-- Checks the Neovim 0.7+ configuration that README.md shows, for
-- tests/lsp_neovim.rs: Neovim runs with that block as its init.lua and a
-- `.rules` file (chess.rules with an error) opened; this script waits for
-- the server to attach and publish diagnostics, opens a second `.rules` file
-- (child.rules), and writes what it saw as JSON to RULEBOOK_OUT, then quits.
-- Run as `nvim --headless -u init.lua chess.rules -c "luafile THIS"`.

local out_path = os.getenv('RULEBOOK_OUT')

--- What was seen, written as JSON at the end.
local out = {}

--- The names and ids of the clients attached to buffer `bufnr`.
local function attached(bufnr)
  local list = {}
  for id, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    table.insert(list, { id = id, name = c.name })
  end
  return list
end

--- The codes of the diagnostics Neovim holds for `bufnr`.
local function codes(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(list, d.code or vim.NIL)
  end
  return list
end

--- The check proper: every observation goes into `out`.
local function run()
  local first = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[first].filetype
  out.commentstring = vim.bo[first].commentstring
  out.diagnostics_arrived = vim.wait(20000, function()
    return #vim.diagnostic.get(first) > 0
  end, 20) == true
  out.first = { clients = attached(first), codes = codes(first) }
  vim.cmd('edit child.rules')
  local second = vim.api.nvim_get_current_buf()
  vim.wait(10000, function()
    return #attached(second) > 0
  end, 20)
  out.second = { clients = attached(second), filetype = vim.bo[second].filetype }
  out.active = #vim.lsp.get_active_clients()
  -- README's check that the server runs: it prints `{ "rulebook" }`.
  out.inspect = vim.inspect(vim.tbl_map(function(c)
    return c.name
  end, vim.lsp.get_active_clients()))
  vim.lsp.stop_client(vim.lsp.get_active_clients())
  out.stopped = vim.wait(10000, function()
    return #vim.lsp.get_active_clients() == 0
  end, 20) == true
end

local ok, err = pcall(run)
if not ok then
  out.error = tostring(err)
end
if out_path then
  vim.fn.writefile({ vim.fn.json_encode(out) }, out_path)
  vim.cmd('qa!')
else
  io.stderr:write('lsp_neovim_readme.lua: RULEBOOK_OUT is not set\n')
  vim.cmd('cquit 2')
end
