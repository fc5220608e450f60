---@class mcp__github__list_issues.Args
---@field owner string Repository owner
---@field repo string Repository name
---@field state? "OPEN"|"CLOSED" Filter by state, by default both open and closed issues are returned when not provided
---@field labels? string[] Filter by labels
---@field orderBy? "CREATED_AT"|"UPDATED_AT"|"COMMENTS" Order issues by field. If provided, the 'direction' also needs to be provided.
---@field direction? "ASC"|"DESC" Order direction. If provided, the 'orderBy' also needs to be provided.
---@field since? string Filter by date (ISO 8601 timestamp) (format: date-time)
---@field perPage? number Results per page for pagination (min 1, max 100) (minimum: 1, maximum: 100)
---@field after? string Cursor for pagination. Use the cursor from the previous response.

---@param args mcp__github__list_issues.Args
---@return any
function tools.mcp__github__list_issues(args) end

---@class mcp__github__create_pull_request.Args
---@field owner string Repository owner
---@field repo string Repository name
---@field title string PR title
---@field body? string PR description
---@field head string Branch containing changes
---@field base string Branch to merge into
---@field draft? boolean Create as draft PR
---@field maintainer_can_modify? boolean Allow maintainer edits

---@param args mcp__github__create_pull_request.Args
---@return any
function tools.mcp__github__create_pull_request(args) end

---@class mcp__github__push_files.Args
---@field owner string Repository owner
---@field repo string Repository name
---@field branch string Branch to push to
---@field files mcp__github__push_files.Args.files[] Array of file objects to push, each object with path (string) and content (string)
---@field message string Commit message

---@class mcp__github__push_files.Args.files
---@field path string path to the file
---@field content string file content

---@param args mcp__github__push_files.Args
---@return any
function tools.mcp__github__push_files(args) end

---@class mcp__github__merge_pull_request.Args
---@field owner string Repository owner
---@field repo string Repository name
---@field pullNumber number Pull request number
---@field commit_title? string Title for merge commit
---@field commit_message? string Extra detail for merge commit
---@field merge_method? "merge"|"squash"|"rebase" Merge method

---@param args mcp__github__merge_pull_request.Args
---@return any
function tools.mcp__github__merge_pull_request(args) end

---@class mcp__github__search_code.Args
---@field query string Search query using GitHub's powerful code search syntax. Examples: 'content:Skill language:Java org:github', 'NOT is:archived language:Python OR language:go', 'repo:github/github-mcp-server'. Supports exact matching, language filters, path filters, and more.
---@field sort? string Sort field ('indexed' only)
---@field order? "asc"|"desc" Sort order for results
---@field page? number Page number for pagination (min 1) (minimum: 1)
---@field perPage? number Results per page for pagination (min 1, max 100) (minimum: 1, maximum: 100)

---@param args mcp__github__search_code.Args
---@return any
function tools.mcp__github__search_code(args) end

---@class mcp__github__update_repository.Args
---@field owner string The account owner of the repository. The name is not case sensitive.
---@field repo string The name of the repository without the .git extension. The name is not case sensitive.
---@field name? string The name of the repository.
---@field description? string A short description of the repository.
---@field homepage? string A URL with more information about the repository. (format: uri)
---Either `true` to make the repository private or `false` to make it public. Default: `false`.
---**Note**: You will get a `422` error if the organization restricts changing repository visibility to organization owners and a non-owner tries to change the value of private. (default: false)
---@field private? boolean
---@field visibility? "public"|"private"|"internal" The visibility of the repository.
---Specify which security and analysis features to enable or disable for the repository.
---
---To use this parameter, you must have admin permissions for the repository or be an owner or security manager for the organization that owns the repository.
---@field security_and_analysis? mcp__github__update_repository.Args.security_and_analysis|nil
---@field has_issues? boolean Either `true` to enable issues for this repository or `false` to disable them. (default: true)
---@field has_projects? boolean Either `true` to enable projects for this repository or `false` to disable them. **Note:** If you're creating a repository in an organization that has disabled repository projects, the default is `false`, and if you pass `true`, the API returns an error. (default: true)
---@field has_wiki? boolean Either `true` to enable the wiki for this repository or `false` to disable it. (default: true)
---@field has_discussions? boolean Either `true` to enable discussions for this repository or `false` to disable them. (default: false)
---@field is_template? boolean Either `true` to make this repo available as a template repository or `false` to prevent it. (default: false)
---@field default_branch? string Updates the default branch for this repository.
---@field allow_squash_merge? boolean Either `true` to allow squash-merging pull requests, or `false` to prevent squash-merging. (default: true)
---@field allow_merge_commit? boolean Either `true` to allow merging pull requests with a merge commit, or `false` to prevent merging pull requests with merge commits. (default: true)
---@field allow_rebase_merge? boolean Either `true` to allow rebase-merging pull requests, or `false` to prevent rebase-merging. (default: true)
---@field allow_auto_merge? boolean Either `true` to allow auto-merge on pull requests, or `false` to disallow auto-merge. (default: false)
---@field delete_branch_on_merge? boolean Either `true` to allow automatically deleting head branches when pull requests are merged, or `false` to prevent automatic deletion. (default: false)
---@field allow_update_branch? boolean Either `true` to always allow a pull request head branch that is behind its base branch to be updated even if it is not required to be up to date before merging, or false otherwise. (default: false)
---@field use_squash_pr_title_as_default? boolean Either `true` to allow squash-merge commits to use pull request title, or `false` to use commit message. **This property is closing down. Please use `squash_merge_commit_title` instead. (deprecated, default: false)
---Required when using `squash_merge_commit_message`.
---
---The default value for a squash merge commit title:
---
---- `PR_TITLE` - default to the pull request's title.
---- `COMMIT_OR_PR_TITLE` - default to the commit's title (if only one commit) or the pull request's title (when more than one commit).
---@field squash_merge_commit_title? "PR_TITLE"|"COMMIT_OR_PR_TITLE"
---The default value for a squash merge commit message:
---
---- `PR_BODY` - default to the pull request's body.
---- `COMMIT_MESSAGES` - default to the branch's commit messages.
---- `BLANK` - default to a blank commit message.
---@field squash_merge_commit_message? "PR_BODY"|"COMMIT_MESSAGES"|"BLANK"
---Required when using `merge_commit_message`.
---
---The default value for a merge commit title.
---
---- `PR_TITLE` - default to the pull request's title.
---- `MERGE_MESSAGE` - default to the classic title for a merge message (e.g., Merge pull request #123 from branch-name).
---@field merge_commit_title? "PR_TITLE"|"MERGE_MESSAGE"
---The default value for a merge commit message.
---
---- `PR_TITLE` - default to the pull request's title.
---- `PR_BODY` - default to the pull request's body.
---- `BLANK` - default to a blank commit message.
---@field merge_commit_message? "PR_BODY"|"PR_TITLE"|"BLANK"
---@field archived? boolean Whether to archive this repository. `false` will unarchive a previously archived repository. (default: false)
---@field allow_forking? boolean Either `true` to allow private forks, or `false` to prevent private forks. (default: false)
---@field web_commit_signoff_required? boolean Either `true` to require contributors to sign off on web-based commits, or `false` to not require contributors to sign off on web-based commits. (default: false)
---An array of topics to add to the repository. Pass one or more topics to replace the set of existing topics. (maxItems: 20)
---string: (maxLength: 50, pattern: ^[a-z0-9][a-z0-9-]*$)
---@field topics? string[]
---@field team_id? integer The id of the team that will be granted access to this repository. This is only valid when creating a repository in an organization.

---@class mcp__github__update_repository.Args.security_and_analysis
---@field advanced_security? mcp__github__update_repository.Args.security_and_analysis.advanced_security Use the `status` property to enable or disable GitHub Advanced Security for this repository.
---@field secret_scanning? mcp__github__update_repository.Args.security_and_analysis.secret_scanning Use the `status` property to enable or disable secret scanning for this repository.

---@class mcp__github__update_repository.Args.security_and_analysis.advanced_security
---@field status? string Can be `enabled` or `disabled`.

---@class mcp__github__update_repository.Args.security_and_analysis.secret_scanning
---@field status? string Can be `enabled` or `disabled`.

---@param args mcp__github__update_repository.Args
---@return any
function tools.mcp__github__update_repository(args) end
