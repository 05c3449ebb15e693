require('./zz-memo-patch.js');
require('./zz-dto2.js');
